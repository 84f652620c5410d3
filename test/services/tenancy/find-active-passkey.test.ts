import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Principal } from '../../../src/services/auth/create-token-verifier.js';
import { isPromise } from '../../../src/services/maybe-promise.js';
import { findActivePasskey } from '../../../src/services/tenancy/find-active-passkey.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { createTestRuntime, type TestRuntime } from '../../helpers/test-runtime.js';

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
