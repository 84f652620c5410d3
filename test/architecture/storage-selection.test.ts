import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

/**
 * .ci/run runs on PostgreSQL + Redis only the test files `npm test -- --storage-only` chooses,
 * by what they read: the environment or child processes, in the file or the test modules it
 * imports. This checks that choice against another sign of a storage test, what it calls: every
 * file using a helper that follows DATABASE_URL or REDIS_URL, or a command that reads them, must
 * be chosen, so no storage test runs on SQLite alone.
 */
const FOLLOWS_THE_STORAGE =
  /\b(TEST_DIALECT|TEST_DATABASE_URL|TEST_REDIS_URL|createTestRuntime|createTestApp|uniqueSchema|rpaAgainst|spawnRpa|startServe|startInstance|startWorker|withRuntime|buildProgram|loadConfig\(\))\b/;

function list(...flags: string[]): string[] {
  const r = spawnSync(process.execPath, ['scripts/test.mjs', '--list', ...flags], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n');
}

describe('the tests run on PostgreSQL + Redis', () => {
  const all = list();
  const chosen = new Set(list('--storage-only'));

  it('include every test file that uses the storage the environment names', () => {
    const missed = all.filter((f) => FOLLOWS_THE_STORAGE.test(readFileSync(f, 'utf8')) && !chosen.has(f));
    assert.deepEqual(missed, []);
    assert.ok(chosen.has('test/cli/main.test.ts') && chosen.has('test/system/rpa-serve.test.ts'));
  });

  it('leave out tests of pure functions, which a second pass would only repeat', () => {
    const left = all.filter((f) => !chosen.has(f));
    assert.ok(left.includes('test/domain/list-cursor.test.ts'), left.join(', '));
    assert.ok(chosen.size + left.length === all.length && left.length > 0);
  });
});
