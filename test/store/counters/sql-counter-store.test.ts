import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createSqlCounterStore,
  type SqlCounterStore,
} from '../../../src/store/counters/sql-counter-store.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

const MINUTE = 60_000;
const W1 = 1_800_000_000_000;
const W2 = W1 + MINUTE;

describe(`the database's copy of counters kept elsewhere (record), on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let store: SqlCounterStore;

  before(async () => {
    rt = await createTestRuntime();
    store = createSqlCounterStore(rt.deps.store);
  });
  after(() => rt.close());

  it('counts a grant in the window Redis gave it, whatever window the database holds', async () => {
    const key = '{pk:record}:minute';
    await store.record([{ key, cost: 5, windowEnd: W1 }]);
    // Another instance started the next window in Redis; its grant is written while this row of
    // the previous window is still live by the writer's clock.
    await store.record([{ key, cost: 3, windowEnd: W2 }]);
    assert.deepEqual(await store.peek(key, W1 + 1), { hits: 3, windowEnd: W2 });
    await store.record([{ key, cost: 2, windowEnd: W2 }]);
    assert.deepEqual(await store.peek(key, W1 + 1), { hits: 5, windowEnd: W2 });
    // A grant of the ended window written late is not added to the new one.
    await store.record([{ key, cost: 4, windowEnd: W1 }]);
    assert.deepEqual(await store.peek(key, W1 + 1), { hits: 5, windowEnd: W2 });
  });
});
