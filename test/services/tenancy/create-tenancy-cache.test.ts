import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import { insertClient, insertGrants } from '../../../src/store/repositories/clients.js';
import { storeWithin } from '../../../src/store/transaction.js';
import { eventually } from '../../helpers/eventually.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

describe(`the tenancy cache inside a transaction (${TEST_DIALECT})`, () => {
  let rt: TestRuntime;
  let applicationId: string;
  before(async () => {
    rt = await createTestRuntime({ TOKEN_CACHE_TTL_MS: '60000' });
    applicationId = (
      await createApplication(rt.deps, { environment: 'production', name: 'Within', clientNames: [] })
    ).application.id;
  });
  after(() => rt.close());

  it('reads a miss through the transaction, keeps nothing of it, and loads it once committed', async () => {
    const { cache, store } = rt.deps;
    const effects: (() => Promise<void>)[] = [];
    const name = 'Within-EN_GB';
    const seen = await store.db.transaction().execute(async (trx) => {
      const client = { id: randomUUID(), environment: 'production' as const, name, createdAt: Date.now() };
      await insertClient(trx, client);
      await insertGrants(trx, applicationId, [client.id]);
      const within = cache.within(storeWithin(store, trx), (effect) => effects.push(effect));
      // The transaction's own grant, which the store's handle could not see (and on SQLite would
      // wait for the transaction to end to read at all).
      const grants = await within.grants.get(applicationId);
      assert.equal(cache.grants.peek(applicationId), undefined, 'nothing kept before the commit');
      return grants.map((c) => c.name);
    });
    assert.deepEqual(seen, [name]);
    assert.equal(effects.length, 1);
    for (const effect of effects) await effect();
    const kept = await eventually(async () => {
      const held = cache.grants.peek(applicationId);
      assert.ok(held);
      return held.value.map((c) => c.name);
    }, 5000);
    assert.deepEqual(kept, [name]);
  });

  it('answers from memory what memory holds fresh', async () => {
    const { cache, store } = rt.deps;
    const held = await cache.grants.get(applicationId);
    await store.db.transaction().execute(async (trx) => {
      const within = cache.within(storeWithin(store, trx), () => assert.fail('nothing to load after'));
      assert.equal(within.grants.get(applicationId), held);
    });
  });
});
