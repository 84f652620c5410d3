import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type AuthenticatedClient,
  authenticateClient,
} from '../../../src/services/auth/authenticate-client.js';
import { findTokenPasskey } from '../../../src/services/auth/find-token-passkey.js';
import { isPromise } from '../../../src/services/maybe-promise.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { updatePasskey } from '../../../src/services/tenancy/update-passkey.js';
import { createTestRuntime, type TestRuntime } from '../../helpers/test-runtime.js';

/** A runtime with the demo tenant, and its application authenticated as the token endpoint does. */
async function demoClient(env: Record<string, string>, options: { clock?: () => number } = {}) {
  const rt = await createTestRuntime(env, options);
  const demo = await seedDemo(rt.deps, { environment: 'production' });
  const client = await authenticateClient(rt.deps, {
    environment: 'production',
    clientId: demo.clientId,
    clientSecret: demo.clientSecret,
  });
  return { rt, demo, client };
}

describe('findTokenPasskey answers at once when the cache holds the passkey', () => {
  let rt: TestRuntime;
  let demo: DemoCredentials;
  let client: AuthenticatedClient;
  before(async () => {
    ({ rt, demo, client } = await demoClient({ TOKEN_CACHE_TTL_MS: '5000' }));
  });
  after(() => rt.close());

  it("the application's default passkey: a promise while it is loaded, then the passkey", async () => {
    const pending = findTokenPasskey(rt.deps, { client });
    assert.ok(isPromise(pending));
    const passkey = await pending;
    assert.ok(passkey?.isDefault);
    assert.equal(findTokenPasskey(rt.deps, { client }), passkey);
  });

  it('a named passkey: the same, and a refusal is thrown at once once it is cached', async () => {
    const pending = findTokenPasskey(rt.deps, { client, passkey: demo.privacyPasskey });
    assert.ok(isPromise(pending));
    const passkey = await pending;
    assert.equal(passkey?.id, demo.privacyPasskeyId);
    assert.equal(findTokenPasskey(rt.deps, { client, passkey: demo.privacyPasskey }), passkey);
    const unknown = 'rpa_pk_unknown';
    await assert.rejects(async () => findTokenPasskey(rt.deps, { client, passkey: unknown }), {
      code: 'INVALID_QUERY_PARAMETER',
    });
    assert.throws(() => findTokenPasskey(rt.deps, { client, passkey: unknown }), {
      code: 'INVALID_QUERY_PARAMETER',
    });
  });
});

describe('findTokenPasskey checks expiry at request time', () => {
  let now = Date.UTC(2026, 10, 27, 12);
  let rt: TestRuntime;
  let demo: DemoCredentials;
  let client: AuthenticatedClient;
  before(async () => {
    ({ rt, demo, client } = await demoClient({ TOKEN_CACHE_TTL_MS: '60000' }, { clock: () => now }));
  });
  after(() => rt.close());

  it('an expired default gives way to the next usable passkey; an expired one named is refused', async () => {
    await updatePasskey(rt.deps, { passkeyId: demo.responsePasskeyId, expiresAt: now + 30_000 });
    assert.equal((await findTokenPasskey(rt.deps, { client }))?.id, demo.responsePasskeyId);
    assert.equal(
      (await findTokenPasskey(rt.deps, { client, passkey: demo.responsePasskey }))?.id,
      demo.responsePasskeyId,
    );
    now += 30_000;
    assert.equal((await findTokenPasskey(rt.deps, { client }))?.id, demo.privacyPasskeyId);
    await assert.rejects(async () => findTokenPasskey(rt.deps, { client, passkey: demo.responsePasskey }), {
      code: 'INVALID_QUERY_PARAMETER',
    });
  });
});
