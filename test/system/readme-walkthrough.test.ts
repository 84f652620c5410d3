import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const tsx = import.meta.resolve('tsx');
const README_PORT = '8080';

/** The shell blocks of the README's "Try it" section, in order. */
function walkthroughBlocks(): string[] {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Try it');
  const end = readme.indexOf('\n## ', start + 1);
  assert.ok(start > 0 && end > start, 'README has a "Try it" section');
  return [...readme.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

/**
 * The README walkthrough, pasted top to bottom into one shell as a new user would, against a
 * server started as `npm start` starts it: every variable a block uses must have been set by an
 * earlier block (`set -u`), every command must succeed, and no call may be refused for a token
 * revoked or never obtained.
 */
describe(`README walkthrough on ${TEST_DIALECT}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-readme-'));
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
  const env = {
    ...process.env,
    DATABASE_URL: TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'app.db')}`,
    DATABASE_SCHEMA: schema ?? '',
    LOG_LEVEL: 'warn',
  };
  let server: ChildProcess;
  let port: number;

  before(async () => {
    server = spawn(process.execPath, ['--import', tsx, join(repo, 'src/cli/main.ts'), 'serve'], {
      env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    port = await new Promise<number>((resolve, reject) => {
      let out = '';
      const onData = (d: Buffer) => {
        out += d.toString();
        const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      };
      server.stdout?.on('data', onData);
      server.stderr?.on('data', onData);
      server.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
    });
  });

  after(async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('runs pasted from top to bottom', () => {
    const blocks = walkthroughBlocks();
    assert.ok(blocks.length >= 8, `${blocks.length} shell blocks`);
    const script = [
      'set -euo pipefail',
      // `npx rpa` as the README says, run from this checkout's source rather than a build.
      `npx() { if [ "$1" = rpa ]; then shift; node --import '${tsx}' '${join(repo, 'src/cli/main.ts')}' "$@"; else command npx "$@"; fi; }`,
      ...blocks.map((b) => b.replaceAll(`localhost:${README_PORT}`, `localhost:${port}`)),
    ].join('\n');
    const run = spawnSync('bash', ['-c', script], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
    const output = `${run.stdout}\n${run.stderr}`;
    assert.equal(run.status, 0, output.slice(-3000));
    // A call made with a missing or revoked token would be refused with 401.
    assert.doesNotMatch(output, /"httpCode":\s*401|"status":\s*"?401|invalid_token|invalid_client/, output);
    assert.doesNotMatch(output, /"httpCode":\s*5\d\d|"status":\s*"?5\d\d/, output);
    // The author call and the staging listing printed their documents.
    assert.match(output, /"type":"author"/);
    assert.match(output, /demo-stg-acme-en_gb-1/);
  });
});
