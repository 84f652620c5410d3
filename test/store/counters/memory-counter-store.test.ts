import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../../src/errors.js';
import { createAuthFailureThrottle } from '../../../src/services/auth/create-auth-failure-throttle.js';
import { createTestRuntime, type TestRuntime } from '../../helpers/test-runtime.js';

/**
 * The failed-authentication throttle counts on every token request; on SQLite its counters
 * stay in the process's memory (Store.processCounters). Every throttle of the process counts in
 * them, and nothing of them is written to the database.
 */
describe('throttle counters on SQLite stay in the process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-process-counters-'));
  const file = join(dir, 'db.sqlite');
  let runtime: TestRuntime;

  before(async () => {
    runtime = await createTestRuntime(
      { AUTH_FAILURE_LIMIT: '2', AUTH_FAILURE_WINDOW_SECONDS: '60', REDIS_URL: '' },
      { databaseUrl: `sqlite:${file}` },
    );
  });
  after(async () => {
    await runtime?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts failures seen by one throttle against attempts through another, writing nothing to the database', async () => {
    const other = await createAuthFailureThrottle(runtime.deps);
    for (let i = 0; i < 2; i += 1)
      await runtime.http.authThrottle.attempt('token', 'client-x', '192.0.2.7').failed();
    await assert.rejects(
      async () => other.attempt('token', 'client-x', '192.0.2.7').succeeded(),
      (err: unknown) => err instanceof AppError && err.code === 'TOO_MANY_FAILED_ATTEMPTS',
    );
    const rows = await runtime.deps.store.db.selectFrom('limit_counters').select('key').execute();
    assert.deepEqual(rows, [], 'no throttle counter is written to the database');
    assert.deepEqual(
      readdirSync(dir).filter((name) => !name.startsWith('db.sqlite')),
      [],
      'no other file is written beside the database',
    );
    await other.close();
  });
});
