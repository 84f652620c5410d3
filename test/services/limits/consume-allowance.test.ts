import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Passkey } from '../../../src/domain/passkey.js';
import { isPromise } from '../../../src/services/maybe-promise.js';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import { seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { testClock } from '../../helpers/limit-fixtures.js';
import { createTestRuntime, type TestRuntime } from '../../helpers/test-runtime.js';

/** LIMIT_LEASE_MS's default. */
const LEASE_MS = 1000;

describe('a charge answers at once from the allowance this instance holds', () => {
  const clock = testClock();
  let rt: TestRuntime;
  let passkey: Passkey;
  before(async () => {
    rt = await createTestRuntime({ REDIS_URL: '' }, { clock: clock.now });
    const { applicationId } = await seedDemo(rt.deps, { environment: 'production' });
    ({ passkey } = await createPasskey(rt.deps, { applicationId, api: 'response', ratePerMinute: 100 }));
  });
  after(() => rt.close());

  it('a promise while the store must be asked, the decision itself once a lease covers the call', async () => {
    const { limiter } = rt.http;
    // Nothing held: the first charge leases from the store.
    const first = limiter.consume(passkey);
    assert.ok(isPromise(first));
    assert.equal((await first).allowed, true);
    // Demand in one lease period makes the next period's lease cover as many calls ahead.
    for (let i = 0; i < 9; i += 1) assert.equal((await limiter.consume(passkey)).allowed, true);
    clock.advance(LEASE_MS);
    assert.equal((await limiter.consume(passkey)).allowed, true);
    const held = limiter.consume(passkey);
    assert.ok(!isPromise(held));
    assert.equal(held.allowed, true);
    assert.match(held.headers.ratelimit ?? '', /^"minute";r=88;/);
  });
});
