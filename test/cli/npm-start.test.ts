import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `npm start` as an operator's supervisor runs it (a container's command, a service manager):
 * stopping npm with SIGTERM must stop the server the same way, through its shutdown, rather than
 * leave it serving with nobody to stop it. Runs the built server (`dist/`, built by `npm install`);
 * `--ignore-scripts` skips the rebuild that `prestart` would do.
 */
describe(`npm start on ${TEST_DIALECT}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-npm-start-'));
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
  let orphan: number | undefined;

  after(async () => {
    if (orphan !== undefined) {
      try {
        process.kill(orphan, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('passes SIGTERM to the server, which shuts down', async () => {
    const npm = spawn('npm', ['start', '--ignore-scripts', '--silent'], {
      cwd: repo,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'app.db')}`,
        DATABASE_SCHEMA: schema ?? '',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const serving = new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        out += d.toString();
        if (out.includes('"msg":"serving"')) resolve();
      };
      npm.stdout.on('data', onData);
      npm.stderr.on('data', onData);
      npm.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${out}`)));
    });
    // The pipes close once every process holding them has exited: npm and the server alike.
    const closed = Promise.all([
      new Promise((resolve) => npm.stdout.once('close', resolve)),
      new Promise((resolve) => npm.stderr.once('close', resolve)),
    ]);
    await serving;
    // The server's own pid, as its log names it (`owner`: host/pid/…), to clean up if it is left.
    orphan = Number(/"owner":"[^"/]*\/(\d+)\//.exec(out)?.[1]);
    assert.ok(Number.isInteger(orphan) && orphan !== npm.pid, out);

    npm.kill('SIGTERM');
    const left = await Promise.race([
      closed.then(() => false),
      // Not a timing assertion: a server left running never closes the pipes, so the wait needs an end.
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 30_000).unref()),
    ]);
    assert.equal(left, false, `the server was left running after npm stopped:\n${out}`);
    assert.match(out, /"signal":"SIGTERM","msg":"shutting down"/);
    orphan = undefined;
  });
});
