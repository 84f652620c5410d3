import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isPromise } from '../../../src/services/maybe-promise.js';
import { createTestRuntime, type TestRuntime } from '../../helpers/test-runtime.js';

const TTL = 5000;

describe('signing keys answer at once while memory holds them fresh', () => {
  let now = Date.UTC(2026, 10, 23, 12, 0, 0);
  let rt: TestRuntime;
  before(async () => {
    rt = await createTestRuntime({ TOKEN_CACHE_TTL_MS: String(TTL) }, { clock: () => now });
  });
  after(() => rt.close());

  it('current(): a promise while the keys are due a read, then the key itself', async () => {
    const keys = rt.deps.cache.signingKeys;
    keys.markStale();
    const pending = keys.current();
    assert.ok(isPromise(pending));
    const key = await pending;
    assert.equal(keys.current(), key);
    now += TTL;
    const reread = keys.current();
    assert.ok(isPromise(reread));
    assert.equal((await reread).id, key.id);
  });

  it('find(): the key at once when it is known and fresh, a promise for an id not known here', async () => {
    const keys = rt.deps.cache.signingKeys;
    const key = await keys.current();
    assert.equal(keys.find(key.id), key);
    const unknown = keys.find('no-such-key');
    assert.ok(isPromise(unknown));
    assert.equal(await unknown, null);
    keys.markStale();
    const due = keys.find(key.id);
    assert.ok(isPromise(due));
    assert.equal((await due)?.id, key.id);
  });
});
