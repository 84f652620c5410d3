import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isPromise } from '../../../src/services/maybe-promise.js';
import { createTestRuntime, type TestRuntime } from '../../helpers/test-runtime.js';

const TTL = 5000;

describe('the deny list answers at once while its entries are fresh', () => {
  let now = Date.UTC(2026, 10, 23, 12, 0, 0);
  let rt: TestRuntime;
  before(async () => {
    rt = await createTestRuntime({ TOKEN_CACHE_TTL_MS: String(TTL) }, { clock: () => now });
  });
  after(() => rt.close());

  it('isDenied(): a promise while a re-read is due, then the answer itself', async () => {
    const { denials } = rt.deps.cache;
    denials.markStale();
    const pending = denials.isDenied('token-a');
    assert.ok(isPromise(pending));
    assert.equal(await pending, false);
    assert.equal(denials.isDenied('token-a'), false);
    denials.add('token-b', now + 60_000);
    assert.equal(denials.isDenied('token-b'), true);
    now += TTL;
    const due = denials.isDenied('token-b');
    assert.ok(isPromise(due));
    assert.equal(await due, true);
  });

  it('asks the database every time with TOKEN_CACHE_TTL_MS=0', async () => {
    const uncached = await createTestRuntime({ TOKEN_CACHE_TTL_MS: '0' }, { clock: () => now });
    try {
      const answer = uncached.deps.cache.denials.isDenied('token-a');
      assert.ok(isPromise(answer));
      assert.equal(await answer, false);
      const again = uncached.deps.cache.denials.isDenied('token-a');
      assert.ok(isPromise(again));
      assert.equal(await again, false);
    } finally {
      await uncached.close();
    }
  });
});
