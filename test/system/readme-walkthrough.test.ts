import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { rpaNodeArgs } from '../helpers/rpa-cli.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

const repo = REPO_ROOT;
const tsx = import.meta.resolve('tsx');
const README_PORT = '8080';

interface Block {
  readonly lang: 'sh' | 'ts';
  readonly text: string;
}

/** The shell and TypeScript blocks of the README's tour, in README order. */
function tourBlocks(): Block[] {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## A tour of the API');
  const end = readme.indexOf('\n## ', start + 1);
  assert.ok(start > 0 && end > start, 'README has a "A tour of the API" section');
  return [...readme.slice(start, end).matchAll(/```(sh|ts)\n([\s\S]*?)```/g)].map((m) => ({
    lang: m[1] as Block['lang'],
    text: m[2] as string,
  }));
}

/**
 * The tour as one shell script: shell blocks as they stand, and the TypeScript block written to
 * the file its first line names (`// tour.ts`), where it stands, for a later block to run with
 * `npx tsx`. Every curl call must succeed (`--fail-with-body`), so a refused call fails the pass.
 */
function tourScript(blocks: readonly Block[], port: number, rpa: string): string {
  const lines = [
    'set -euo pipefail',
    `npx() { if [ "$1" = rpa ]; then shift; ${rpa} "$@"; else command npx "$@"; fi; }`,
    'curl() { command curl --fail-with-body "$@"; }',
  ];
  for (const block of blocks) {
    const text = block.text.replaceAll(`localhost:${README_PORT}`, `localhost:${port}`);
    if (block.lang === 'sh') {
      lines.push(text);
      continue;
    }
    const file = /^\/\/ ([\w.-]+\.ts)\n/.exec(text)?.[1];
    assert.ok(file, 'the TypeScript block names its file on its first line');
    assert.ok(
      blocks.some((b) => b.lang === 'sh' && b.text.includes(`npx tsx ${file}`)),
      `a shell block runs npx tsx ${file}`,
    );
    lines.push(`cat > '${file}' <<'README_TS_BLOCK'`, text, 'README_TS_BLOCK');
  }
  return lines.join('\n');
}

/**
 * The README tour, pasted top to bottom into one shell as a new user would, against a server
 * started as `npm start` starts it, and then pasted again against the same server and database:
 * every variable a block uses must have been set by an earlier block (`set -u`), every command
 * must succeed, no call may be refused for a token revoked or never obtained, and the TypeScript
 * example must print what it got.
 */
describe(`README tour on ${TEST_DIALECT}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-readme-'));
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
  const env = {
    ...process.env,
    DATABASE_URL: TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'app.db')}`,
    DATABASE_SCHEMA: schema ?? '',
    LOG_LEVEL: 'warn',
  };
  // The built CLI when it is current; tsx resolved from here, as the shell runs in another folder.
  const rpaArgs = rpaNodeArgs([]).map((a) => (a === 'tsx' ? tsx : a));
  let server: ChildProcess;
  let port: number;

  before(async () => {
    // The tour's TypeScript file is written here and runs as it would in the checkout: an ES
    // module (the checkout's package.json says so) importing the SDK from its node_modules.
    symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), '{"type":"module","private":true}\n');
    server = spawn(process.execPath, [...rpaArgs, 'serve'], {
      env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    port = await new Promise<number>((resolve, reject) => {
      let out = '';
      const onData = (d: Buffer) => {
        out += d.toString();
        const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m && /"msg":"serving"/.test(out)) resolve(Number(m[1]));
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

  it('runs pasted from top to bottom, twice in a row', () => {
    const blocks = tourBlocks();
    assert.ok(blocks.filter((b) => b.lang === 'sh').length >= 8, `${blocks.length} blocks`);
    assert.equal(blocks.filter((b) => b.lang === 'ts').length, 1, 'one TypeScript example');
    const rpa = ['node', ...rpaArgs].map((a) => `'${a}'`).join(' ');
    const script = tourScript(blocks, port, rpa);
    const counts: number[] = [];
    for (const pass of [1, 2]) {
      const run = spawnSync('bash', ['-c', script], { cwd: dir, env, encoding: 'utf8', timeout: 180_000 });
      const output = `${run.stdout}\n${run.stderr}`;
      assert.equal(run.status, 0, `pass ${pass}: ${output.slice(-3000)}`);
      // A call made with a missing or revoked token would be refused with 401.
      assert.doesNotMatch(output, /"httpCode":\s*401|"status":\s*"?401|invalid_token|invalid_client/, output);
      assert.doesNotMatch(output, /"httpCode":\s*5\d\d|"status":\s*"?5\d\d/, output);
      // The author call, the deprecated prefix and the staging listing printed their answers.
      assert.match(output, /"type":"author"/);
      assert.match(output, /^deprecation: @\d+$/im);
      assert.match(output, /demo-stg-acme-en_gb-1/);
      // The TypeScript example printed what it created and what the server then counted.
      assert.match(output, /^created response [0-9a-f-]{36}: "Thank you, Bob! \(\d{4}-[^"]+\)"$/m, output);
      const count = /^its author is [0-9a-f-]{36}; the review has (\d+) response\(s\)$/m.exec(output);
      assert.ok(count, output);
      counts.push(Number(count[1]));
    }
    // Each pass added one answer of its own, the second beside the first.
    assert.equal(counts[1], (counts[0] as number) + 1, `response counts ${counts.join(', ')}`);
  });
});
