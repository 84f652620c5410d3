import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashCredential } from '../../../src/domain/credentials.js';
import type { Principal } from '../../../src/services/auth/create-token-verifier.js';
import { isPromise } from '../../../src/services/maybe-promise.js';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import { findActivePasskey } from '../../../src/services/tenancy/find-active-passkey.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { updatePasskey } from '../../../src/services/tenancy/update-passkey.js';
import { seedTestTenant, type TestTenant } from '../../helpers/credentials.js';
import { testClock } from '../../helpers/limit-fixtures.js';
import {
  createTestApp,
  createTestRuntime,
  TEST_DIALECT,
  type TestApp,
  type TestRuntime,
} from '../../helpers/test-runtime.js';
import { requestToken } from '../../http/auth/oauth-fixtures.js';

describe('findActivePasskey answers at once when the cache holds an accepted passkey', () => {
  let rt: TestRuntime;
  let demo: DemoCredentials;
  let principal: Principal;
  before(async () => {
    rt = await createTestRuntime({ TOKEN_CACHE_TTL_MS: '5000' });
    demo = await seedDemo(rt.deps, { environment: 'production' });
    principal = {
      applicationId: demo.applicationId,
      applicationName: 'demo',
      clientId: demo.clientId,
      environment: 'production',
      tokenId: 'token',
      expiresAt: Number.MAX_SAFE_INTEGER,
    };
  });
  after(() => rt.close());

  it('a promise while the passkey is loaded, then the passkey; a refusal always rejects', async () => {
    const input = { value: demo.responsePasskey, principal, api: 'response' as const };
    const pending = findActivePasskey(rt.deps, input);
    assert.ok(isPromise(pending));
    const passkey = await pending;
    assert.equal(passkey.id, demo.responsePasskeyId);
    assert.equal(findActivePasskey(rt.deps, input), passkey);
    // Cached, and refused for another API: rejected, not thrown.
    const refused = findActivePasskey(rt.deps, { ...input, api: 'privacy' });
    assert.ok(isPromise(refused));
    await assert.rejects(refused, { code: 'DEVELOPER_INACTIVE' });
  });
});

describe(`an expired passkey is refused on the Response API like a revoked one (${TEST_DIALECT})`, () => {
  const clock = testClock();
  let t: TestApp;
  let tenant: TestTenant;
  before(async () => {
    // Cached for a minute: the expiry must be checked at request time, not when the cache is filled.
    // Without Redis: this process would also hear its own announcements of the passkeys created
    // below, whenever they arrive, and drop the cache entry this test needs (a passkey change
    // clears them all), so the entry would be there or not by timing alone.
    t = await createTestApp({ TOKEN_CACHE_TTL_MS: '60000', REDIS_URL: '' }, { clock: clock.now });
    tenant = await seedTestTenant(t.runtime);
  });
  after(() => t.close());

  const review = (passkey: string, token: string) =>
    t.app.inject({
      method: 'GET',
      url: `/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1?passkey=${passkey}`,
      headers: { host: 'localhost:8080', authorization: `Bearer ${token}` },
    });

  it('answers the same 403 for both, once the cached passkey has expired', async () => {
    const deps = t.runtime.deps;
    const { token } = tenant;
    const issue = (expiresAt?: number) =>
      createPasskey(deps, { applicationId: tenant.applicationId, api: 'response', expiresAt });
    const expiring = await issue(clock.now() + 30_000);
    const revoked = await issue();
    await updatePasskey(deps, { passkeyId: revoked.passkey.id, revoke: true });
    assert.equal((await review(expiring.value, token)).statusCode, 200);
    const revokedAnswer = await review(revoked.value, token);

    clock.advance(30_000);
    assert.ok(deps.cache.passkeys.peek(hashCredential(expiring.value)), 'still cached');
    const expiredAnswer = await review(expiring.value, token);
    assert.equal(expiredAnswer.statusCode, 403);
    assert.equal(revokedAnswer.statusCode, 403);
    assert.equal(expiredAnswer.headers['content-type'], revokedAnswer.headers['content-type']);
    assert.deepEqual(expiredAnswer.json(), revokedAnswer.json());
    assert.equal(expiredAnswer.json().errors[0].code, 'DEVELOPER_INACTIVE');

    // Named at the token endpoint too, it is refused as a revoked one is.
    const named = async (value: string) =>
      (await requestToken(t.app, tenant.clientId, tenant.clientSecret, { query: `passkey=${value}` })).json();
    assert.deepEqual(await named(expiring.value), await named(revoked.value));
    assert.equal((await named(expiring.value)).error, 'invalid_request');
  });
});
