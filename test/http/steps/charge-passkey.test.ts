import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { hashCredential } from '../../../src/domain/credentials.js';
import type { PasskeyApi } from '../../../src/domain/passkey.js';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import { findPasskey } from '../../../src/services/tenancy/list-passkeys.js';
import { updatePasskey } from '../../../src/services/tenancy/update-passkey.js';
import { findPasskeyByHash } from '../../../src/store/repositories/passkeys.js';
import { issueTestToken, seedTestTenant, type TestTenant } from '../../helpers/credentials.js';
import { testClock } from '../../helpers/limit-fixtures.js';
import { createTestApp, TEST_DIALECT, TEST_REDIS_URL, type TestApp } from '../../helpers/test-runtime.js';
import { requestToken } from '../auth/oauth-fixtures.js';

const HOST = 'localhost:8080';
const REVIEWS = '/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1';
const FORGET = '/privacy/v1/forgetRequests';
/** Nothing listens on port 1: every Redis command fails at once. */
const UNREACHABLE_REDIS = 'redis://127.0.0.1:1';

function get(
  t: TestApp,
  path: string,
  passkey: string,
  token: string | null,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'GET',
    url: `${path}?passkey=${passkey}`,
    headers: { host: HOST, ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
  });
}

function assertRateLimitFields(res: LightMyRequestResponse, policy: string, remaining: RegExp): void {
  assert.equal(res.headers['ratelimit-policy'], policy);
  assert.match(String(res.headers.ratelimit), remaining);
}

describe(`rate limits and quotas through the APIs (${TEST_REDIS_URL ? 'Redis' : TEST_DIALECT} counters)`, () => {
  const clock = testClock();
  let t: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  /** Bearer tokens valid at the clock's current time (each test moves it). */
  let token: string;
  let otherToken: string;

  before(async () => {
    t = await createTestApp({}, { clock: clock.now });
    tenant = await seedTestTenant(t.runtime);
    other = await seedTestTenant(t.runtime);
  });
  after(() => t.close());

  async function at(ms: number): Promise<void> {
    clock.set(ms);
    token = await issueTestToken(t.runtime, tenant.applicationId, 'production');
    otherToken = await issueTestToken(t.runtime, other.applicationId, 'production');
  }

  /** A new passkey of the tenant's application with its own numbers. */
  async function passkey(api: PasskeyApi, ratePerMinute: number, quotaPerDay: number): Promise<string> {
    const created = await createPasskey(t.runtime.deps, {
      applicationId: tenant.applicationId,
      api,
      ratePerMinute,
      quotaPerDay,
    });
    return created.value;
  }

  it("notes each call's passkey as used, written when the usage is flushed, not on the call", async () => {
    await at(Date.UTC(2026, 5, 1, 9));
    const lastUsed = async (id: string) =>
      (await findPasskey(t.runtime.deps, { passkeyId: id, environment: 'production' })).lastUsedAt;
    assert.equal((await get(t, REVIEWS, tenant.responsePasskey, token)).statusCode, 200);
    assert.equal(await lastUsed(tenant.responsePasskeyId), null);
    await t.runtime.http.passkeyUsage.flush();
    assert.equal(await lastUsed(tenant.responsePasskeyId), clock.now());
    assert.equal(await lastUsed(tenant.privacyPasskeyId), null);
  });

  it('Response API: fields on every charged answer, then 429 as a JSON:API error with Retry-After', async () => {
    await at(Date.UTC(2026, 10, 23, 10, 15, 18));
    const key = await passkey('response', 2, 100);
    const policy = '"minute";q=2;w=60, "day";q=100';
    const first = await get(t, REVIEWS, key, token);
    assert.equal(first.statusCode, 200, first.body);
    assertRateLimitFields(first, `${policy};w=86400`, /^"minute";r=1;t=42, "day";r=99;t=49482$/);
    // An answer that fails after charging still tells the client where it stands.
    const missing = await get(
      t,
      '/response/v1/clientResponses/00000000-0000-4000-8000-000000000000',
      key,
      token,
    );
    assert.equal(missing.statusCode, 404);
    assertRateLimitFields(missing, `${policy};w=86400`, /^"minute";r=0;t=42, "day";r=98;t=49482$/);

    const refused = await get(t, REVIEWS, key, token);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '42');
    assert.match(String(refused.headers['content-type']), /^application\/vnd\.api\+json/);
    assertRateLimitFields(refused, `${policy};w=86400`, /^"minute";r=0;t=42, "day";r=98;t=49482$/);
    const body = refused.json();
    assert.equal(body.httpCode, 429);
    assert.equal(body.errors[0].status, '429');
    assert.equal(body.errors[0].code, 'RATE_LIMITED');
    assert.equal(refused.body.includes(key), false);

    clock.advance(42_000);
    assert.equal((await get(t, REVIEWS, key, token)).statusCode, 200);
  });

  it('Privacy API: over the daily quota is 429 problem+json with Retry-After until 00:00 UTC', async () => {
    await at(Date.UTC(2026, 10, 23, 22, 0, 0));
    const key = await passkey('privacy', 100, 1);
    const first = await get(t, FORGET, key, token);
    assert.equal(first.statusCode, 200, first.body);
    assertRateLimitFields(
      first,
      '"minute";q=100;w=60, "day";q=1;w=86400',
      /^"minute";r=99;t=60, "day";r=0;t=7200$/,
    );
    const refused = await get(t, FORGET, key, token);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '7200');
    assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
    const problem = refused.json();
    assert.equal(problem.status, 429);
    assert.equal(problem.code, 'QUOTA_EXCEEDED');
    assert.equal(problem.type, '/problems/quota-exceeded');
  });

  it('token endpoint: charged to the named passkey, 429 in the RFC 6749 shape when over', async () => {
    await at(Date.UTC(2026, 10, 23, 12, 0, 30));
    const key = await passkey('privacy', 1, 100);
    const first = await requestToken(t.app, tenant.clientId, tenant.clientSecret, {
      query: `passkey=${key}`,
    });
    assert.equal(first.statusCode, 200, first.body);
    assertRateLimitFields(
      first,
      '"minute";q=1;w=60, "day";q=100;w=86400',
      /^"minute";r=0;t=30, "day";r=99;t=43170$/,
    );
    const refused = await requestToken(t.app, tenant.clientId, tenant.clientSecret, {
      query: `passkey=${key}`,
    });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '30');
    assert.match(String(refused.headers['content-type']), /^application\/json/);
    assert.equal(refused.json().error, 'slow_down');
    assert.equal(refused.json().access_token, undefined);
    // The resource APIs share the allowance the token calls used up.
    const call = await get(t, FORGET, key, token);
    assert.equal(call.statusCode, 429);
  });

  it("token endpoint: without ?passkey= the application's default passkey is charged", async () => {
    await at(Date.UTC(2026, 10, 23, 13, 0, 0));
    const before = await get(t, REVIEWS, tenant.responsePasskey, token);
    const res = await requestToken(t.app, tenant.clientId, tenant.clientSecret);
    assert.equal(res.statusCode, 200, res.body);
    const after = await get(t, REVIEWS, tenant.responsePasskey, token);
    const remaining = (r: LightMyRequestResponse) =>
      Number(/"minute";r=(\d+)/.exec(String(r.headers.ratelimit))?.[1]);
    assert.equal(remaining(res), remaining(before) - 1);
    assert.equal(remaining(after), remaining(before) - 2);
  });

  it("requests refused for a bad token, passkey or secret never touch a passkey's allowance", async () => {
    await at(Date.UTC(2026, 10, 23, 14, 0, 0));
    const key = await passkey('response', 5, 100);
    for (let i = 0; i < 8; i += 1) {
      // Another application's token with this passkey: 403.
      assert.equal((await get(t, REVIEWS, key, otherToken)).statusCode, 403);
      // A bad token: 401.
      assert.equal((await get(t, REVIEWS, key, 'rpa_at_not-a-token')).statusCode, 401);
      // No token at all: 401.
      assert.equal((await get(t, REVIEWS, key, null)).statusCode, 401);
      // The passkey on the wrong API: 403.
      assert.equal((await get(t, FORGET, key, token)).statusCode, 403);
      // A wrong client secret at the token endpoint naming this passkey: 401.
      const login = await requestToken(t.app, tenant.clientId, `wrong-${i}`, {
        query: `passkey=${key}`,
        remoteAddress: `10.20.0.${i + 1}`,
      });
      assert.equal(login.statusCode, 401);
      // Another application naming this passkey at the token endpoint: 400.
      const foreign = await requestToken(t.app, other.clientId, other.clientSecret, {
        query: `passkey=${key}`,
      });
      assert.equal(foreign.statusCode, 400);
    }
    const res = await get(t, REVIEWS, key, token);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers.ratelimit), /^"minute";r=4;t=60, "day";r=99;/);
  });

  it('a limit changed with updatePasskey applies from the next request', async () => {
    await at(Date.UTC(2026, 10, 23, 15, 0, 0));
    const key = await passkey('response', 100, 1000);
    assert.equal((await get(t, REVIEWS, key, token)).statusCode, 200);
    const row = await findPasskeyByHash(t.runtime.deps.store.db, hashCredential(key));
    await updatePasskey(t.runtime.deps, { passkeyId: row!.id, ratePerMinute: 1 });
    const refused = await get(t, REVIEWS, key, token);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['ratelimit-policy'], '"minute";q=1;w=60, "day";q=1000;w=86400');
  });
});

describe('when Redis cannot be reached', () => {
  /** The outage's warning lines: one when it starts (and one when it ends), never one per call. */
  const outageWarnings = (t: TestApp) =>
    t.runtime.logs.lines
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.level === 40 && l.msg === 'redis unavailable: outage started');

  describe('RATE_LIMIT_FAIL_MODE=closed (the default)', () => {
    let t: TestApp;
    let tenant: TestTenant;
    before(async () => {
      t = await createTestApp({ REDIS_URL: UNREACHABLE_REDIS });
      tenant = await seedTestTenant(t.runtime);
    });
    after(() => t.close());

    it('refuses API calls with 503 and Retry-After in the API shape, and warns once', async () => {
      for (let i = 0; i < 3; i += 1) {
        const res = await get(t, REVIEWS, tenant.responsePasskey, tenant.token);
        assert.equal(res.statusCode, 503);
        assert.equal(res.headers['retry-after'], '5');
        assert.match(String(res.headers['content-type']), /^application\/vnd\.api\+json/);
        assert.equal(res.json().errors[0].code, 'SERVICE_UNAVAILABLE');
        assert.ok(res.headers['ratelimit-policy']);
        assert.equal(res.headers.ratelimit, undefined);
      }
      const problem = await get(t, FORGET, tenant.privacyPasskey, tenant.token);
      assert.equal(problem.statusCode, 503);
      assert.match(String(problem.headers['content-type']), /^application\/problem\+json/);
      assert.equal(outageWarnings(t).length, 1);
    });

    it('refuses token calls with 503 temporarily_unavailable', async () => {
      const res = await requestToken(t.app, tenant.clientId, tenant.clientSecret);
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().error, 'temporarily_unavailable');
      assert.ok(res.headers['retry-after']);
    });
  });

  describe('RATE_LIMIT_FAIL_MODE=open', () => {
    let t: TestApp;
    let tenant: TestTenant;
    before(async () => {
      t = await createTestApp({ REDIS_URL: UNREACHABLE_REDIS, RATE_LIMIT_FAIL_MODE: 'open' });
      tenant = await seedTestTenant(t.runtime);
    });
    after(() => t.close());

    it('serves calls uncounted, advertising the policy but no remaining allowance, and warns once', async () => {
      await updatePasskey(t.runtime.deps, {
        passkeyId: (await findPasskeyByHash(t.runtime.deps.store.db, hashCredential(tenant.responsePasskey)))!
          .id,
        ratePerMinute: 1,
      });
      for (let i = 0; i < 4; i += 1) {
        const res = await get(t, REVIEWS, tenant.responsePasskey, tenant.token);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['ratelimit-policy'], '"minute";q=1;w=60, "day";q=100000;w=86400');
        assert.equal(res.headers.ratelimit, undefined);
      }
      const token = await requestToken(t.app, tenant.clientId, tenant.clientSecret);
      assert.equal(token.statusCode, 200, token.body);
      assert.equal(outageWarnings(t).length, 1);
    });
  });
});
