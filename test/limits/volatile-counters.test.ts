import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../src/errors.js';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.js';

/**
 * The failed-authentication throttle writes twice per token request; on SQLite its counters live in
 * a file of their own whose commits skip the disk flush (Store.volatileCounters). This checks they
 * are still counted where every runtime on the same database finds them, and that the main
 * database is not written by them.
 */
describe('throttle counters on SQLite live in the database file’s counter file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-volatile-'));
  const file = join(dir, 'db.sqlite');
  const env = { AUTH_FAILURE_LIMIT: '2', AUTH_FAILURE_WINDOW_SECONDS: '60', REDIS_URL: '' };
  let a: TestRuntime;
  let b: TestRuntime;

  before(async () => {
    a = await createTestRuntime(env, { databaseUrl: `sqlite:${file}` });
    b = await createTestRuntime(env, { databaseUrl: `sqlite:${file}` });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts failures seen by one runtime against attempts made through another, outside the main database', async () => {
    for (let i = 0; i < 2; i += 1)
      await (await a.http.authThrottle.reserve('client-x', '192.0.2.7')).failed();
    await assert.rejects(
      b.http.authThrottle.reserve('client-x', '192.0.2.7'),
      (err: unknown) => err instanceof AppError && err.code === 'TOO_MANY_FAILED_ATTEMPTS',
    );
    assert.ok(existsSync(`${file}-counters`));
    const rows = await a.deps.store.db.selectFrom('limit_counters').select('key').execute();
    assert.deepEqual(rows, [], 'no throttle counter is written to the main database');
  });
});
