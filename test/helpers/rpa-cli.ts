import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

export interface RpaResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Returns a runner for `rpa` from source against one database (a SQLite file or a PostgreSQL
 * schema), as an operator would run it: a separate process, its output and exit code.
 */
export function rpaAgainst(
  target: { databaseUrl: string; schema: string | undefined },
  env: Record<string, string> = {},
) {
  return (...args: string[]): RpaResult => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      env: {
        ...process.env,
        DATABASE_URL: target.databaseUrl,
        DATABASE_SCHEMA: target.schema ?? '',
        LOG_LEVEL: '',
        ...env,
      },
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
