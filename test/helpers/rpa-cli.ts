import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { run } from '../../src/cli/main.js';
import { REPO_ROOT } from './repo-root.js';

const repo = REPO_ROOT;

/** Set by scripts/test.mjs, which builds dist/ before any test starts. */
const BUILT_BY_RUNNER = 'RPA_TEST_DIST_BUILT';

let current: boolean | undefined;

/**
 * Whether `dist/` holds a build of every source file at least as new as it. `npm test` builds
 * before any test starts and says so; run otherwise (`node --import tsx --test` on a file), the
 * sources are compared with the build once per process. The built CLI starts in a fraction of a
 * second where tsx compiles the CLI again in every process (1.5-3 s on two cores).
 */
function builtCliIsCurrent(): boolean {
  current ??= process.env[BUILT_BY_RUNNER] === '1' || builtFilesAreNewer();
  return current;
}

function builtFilesAreNewer(): boolean {
  const walk = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).every((e) => {
      const source = join(dir, e.name);
      if (e.isDirectory()) return walk(source);
      if (!e.name.endsWith('.ts')) return true;
      const built = join(repo, 'dist', source.slice(join(repo, 'src').length).replace(/\.ts$/, '.js'));
      return existsSync(built) && statSync(built).mtimeMs >= statSync(source).mtimeMs;
    });
  return existsSync(join(repo, 'dist', 'cli', 'main.js')) && walk(join(repo, 'src'));
}

/** Node's arguments that run `rpa <args>`: the built CLI when it is current, the sources otherwise. */
export function rpaNodeArgs(args: readonly string[]): string[] {
  return builtCliIsCurrent()
    ? [join(repo, 'dist', 'cli', 'main.js'), ...args]
    : ['--import', 'tsx', join(repo, 'src', 'cli', 'main.ts'), ...args];
}

export interface RpaResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function environment(target: RpaTarget, env: Record<string, string>): Record<string, string | undefined> {
  return {
    ...process.env,
    DATABASE_URL: target.databaseUrl,
    DATABASE_SCHEMA: target.schema ?? '',
    LOG_LEVEL: '',
    ...env,
  };
}

/** The database a runner works on: a SQLite file or a PostgreSQL schema. */
export interface RpaTarget {
  databaseUrl: string;
  schema: string | undefined;
}

/**
 * Returns a runner for `rpa` against one database, in this process: the CLI's own entry (`run`)
 * with an environment, stdin and output streams of the test's, its exit code returned. A process
 * per command would load the whole server again each time, a second of CPU.
 */
export function rpaAgainst(target: RpaTarget, env: Record<string, string> = {}) {
  return async (...args: string[]): Promise<RpaResult> => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await run(['node', 'rpa', ...args], {
      env: environment(target, env),
      stdin: Readable.from([]),
      stdout: { write: (text: string) => stdout.push(text) },
      stderr: { write: (text: string) => stderr.push(text) },
      exitCode: 0,
    });
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  };
}

/** As rpaAgainst, but each command a process of the built CLI, as an operator's shell runs it. */
export function rpaProcessAgainst(target: RpaTarget, env: Record<string, string> = {}) {
  return (...args: string[]): RpaResult => {
    const r = spawnSync(process.execPath, rpaNodeArgs(args), {
      env: environment(target, env),
      encoding: 'utf8',
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
}

/** A failed command: a non-zero code and exactly one line on stderr, starting with `rpa: `. */
export function assertOneLineFailure(r: { code: number | null; stderr: string }, what: string): string {
  assert.notEqual(r.code, 0, `${what} should fail`);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `${what}: ${r.stderr}`);
  assert.match(lines[0] ?? '', /^rpa: /, what);
  return lines[0] ?? '';
}
