import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';
import { spawnCollecting, waitForOutput } from './child-processes.js';

const repo = REPO_ROOT;

/**
 * `npm start` as an operator's supervisor runs it (a container's command, a service manager):
 * stopping npm with SIGTERM must stop the server the same way, through its shutdown, rather than
 * leave it serving with nobody to stop it. It starts the built server (`dist/`, built by
 * `npm install`) and nothing else: compiling at every start took 16 s with nothing changed.
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
    const npm = spawnCollecting('npm', ['start'], {
      cwd: repo,
      env: {
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'app.db')}`,
        DATABASE_SCHEMA: schema ?? '',
      },
    });
    // The pipes close once every process holding them has exited: npm and the server alike.
    const { stdout, stderr } = npm.process;
    const closed = Promise.all([
      new Promise((resolve) => stdout?.once('close', resolve)),
      new Promise((resolve) => stderr?.once('close', resolve)),
    ]);
    // The server's own pid, as its log names it (`owner`: host/pid/…), to clean up if it is left.
    await waitForOutput(npm, /"msg":"serving"/);
    orphan = Number(/"owner":"[^"/]*\/(\d+)\//.exec(npm.output())?.[1]);
    // npm names every script it runs (`> reviews-partner-api@0.1.0 start`): only `start`, no build.
    assert.deepEqual(
      [...npm.output().matchAll(/^> \S+ (\S+)$/gm)].map((m) => m[1]),
      ['start'],
      npm.output(),
    );
    assert.ok(Number.isInteger(orphan) && orphan !== npm.process.pid, npm.output());

    npm.process.kill('SIGTERM');
    const left = await Promise.race([
      closed.then(() => false),
      // Not a timing assertion: a server left running never closes the pipes, so the wait needs an end.
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 30_000).unref()),
    ]);
    assert.equal(left, false, `the server was left running after npm stopped:\n${npm.output()}`);
    assert.match(npm.output(), /"signal":"SIGTERM","msg":"shutting down"/);
    orphan = undefined;
  });
});
