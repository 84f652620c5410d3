import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authenticateClient } from '../../../src/services/auth/authenticate-client.js';
import { issueAccessToken } from '../../../src/services/auth/issue-access-token.js';
import { isPromise } from '../../../src/services/maybe-promise.js';
import { seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { createTestRuntime, type TestRuntime } from '../../helpers/test-runtime.js';

describe('issueAccessToken', () => {
  let rt: TestRuntime;
  before(async () => {
    rt = await createTestRuntime({ TOKEN_CACHE_TTL_MS: '5000' });
  });
  after(() => rt.close());

  it('signs at once when the signing key is in memory, and through a promise when it must be read', async () => {
    const demo = await seedDemo(rt.deps, { environment: 'production' });
    const client = await authenticateClient(rt.deps, {
      environment: 'production',
      clientId: demo.clientId,
      clientSecret: demo.clientSecret,
    });
    rt.deps.cache.signingKeys.markStale();
    const pending = issueAccessToken(rt.deps, { client, scope: 'offline_access' });
    assert.ok(isPromise(pending));
    const first = await pending;
    const second = issueAccessToken(rt.deps, { client, scope: 'offline_access' });
    assert.ok(!isPromise(second));
    assert.notEqual(second.accessToken, first.accessToken);
    assert.equal(second.scope, 'offline_access');
    assert.equal(
      (await rt.http.tokens.verify(second.accessToken, 'production')).applicationId,
      demo.applicationId,
    );
  });
});
