import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../../src/http/build-server.js';
import { createAdminToken } from '../../../src/services/admin/create-admin-token.js';
import { revokeAdminToken } from '../../../src/services/admin/revoke-admin-token.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { createTestAdminApp, type TestAdminApp } from '../../helpers/test-admin-app.js';
import { TEST_DIALECT } from '../../helpers/test-runtime.js';
import { requestToken } from '../auth/oauth-fixtures.js';

describe(`admin authentication on ${TEST_DIALECT}`, () => {
  let t: TestAdminApp;
  let now = Date.UTC(2026, 10, 27, 12);
  before(async () => {
    // One token's worth per address: an address fails out with the first token that does.
    t = await createTestAdminApp(
      { AUTH_FAILURE_LIMIT: '5', AUTH_FAILURE_ADDRESS_LIMIT: '5' },
      { clock: () => now },
    );
  });
  after(() => t.close());

  const list = (authorization?: string, remoteAddress = '203.0.113.1') =>
    t.app.inject({
      method: 'GET',
      url: '/admin/v1/production/clients',
      remoteAddress,
      headers: authorization ? { authorization } : {},
    });

  it('asks for a token with a Bearer challenge (RFC 6750 §3)', async () => {
    const res = await list();
    assert.equal(res.statusCode, 401);
    assert.equal(res.headers['www-authenticate'], 'Bearer realm="admin"');
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(res.json().code, 'UNAUTHORIZED');
    const malformed = await list('Basic abc');
    assert.equal(malformed.statusCode, 401);
    assert.match(malformed.json().detail, /Bearer <admin token>/);
  });

  it('refuses an unknown, a revoked and an expired token alike, with error="invalid_token"', async () => {
    const revoked = await createAdminToken(t.runtime.deps, { name: 'gone', scopes: ['tenancy:read'] });
    await revokeAdminToken(t.runtime.deps, { tokenId: revoked.token.id });
    const expiring = await createAdminToken(t.runtime.deps, {
      name: 'short',
      scopes: ['tenancy:read'],
      lifetimeMs: 60_000,
    });
    assert.equal((await list(`Bearer ${expiring.value}`, '203.0.113.2')).statusCode, 200);
    now += 60_000;
    const answers = [];
    for (const value of ['rpa_adm_unknown', revoked.value, expiring.value, 'rpa_pk_not-an-admin-token'])
      answers.push(await list(`Bearer ${value}`, '203.0.113.2'));
    for (const res of answers) {
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="admin", error="invalid_token"');
      assert.equal(res.json().detail, 'The admin token is unknown, revoked or expired');
    }
  });

  it('refuses a token without the scope with 403 insufficient_scope naming it', async () => {
    const reader = await t.bearer('tenancy:read');
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/production/clients',
      headers: { authorization: reader },
      payload: { name: 'Acme-EN_GB' },
    });
    assert.equal(res.statusCode, 403);
    assert.equal(
      res.headers['www-authenticate'],
      'Bearer realm="admin", error="insufficient_scope", scope="tenancy:write"',
    );
    assert.equal(res.json().code, 'INSUFFICIENT_SCOPE');
    assert.equal((await list(reader)).statusCode, 200);
  });

  it('throttles failed attempts per address, then refuses even a good token from it', async () => {
    const good = await t.bearer('tenancy:read');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++)
      codes.push((await list(`Bearer rpa_adm_guess${i}`, '198.51.100.7')).statusCode);
    assert.deepEqual(codes, [401, 401, 401, 401, 401, 429]);
    const blocked = await list(good, '198.51.100.7');
    assert.equal(blocked.statusCode, 429);
    assert.ok(Number(blocked.headers['retry-after']) > 0);
    assert.equal((await list(good, '198.51.100.8')).statusCode, 200);
  });
});

describe(`admin and client authentication failures, counted apart, on ${TEST_DIALECT}`, () => {
  let t: TestAdminApp;
  let pub: FastifyInstance;
  let demo: DemoCredentials;
  before(async () => {
    t = await createTestAdminApp({ AUTH_FAILURE_LIMIT: '5', AUTH_FAILURE_ADDRESS_LIMIT: '20' });
    // The public listener of the same instance: one throttle for both.
    pub = await buildServer(t.runtime.http);
    await pub.ready();
    demo = await seedDemo(t.runtime.deps, { environment: 'production' });
  });
  after(async () => {
    await pub.close();
    await t.close();
  });

  const list = (authorization: string, remoteAddress: string) =>
    t.app.inject({
      method: 'GET',
      url: '/admin/v1/production/clients',
      remoteAddress,
      headers: { authorization },
    });
  const adminStatuses = async (tokens: string[], remoteAddress: string) => {
    const codes: number[] = [];
    for (const token of tokens) codes.push((await list(`Bearer ${token}`, remoteAddress)).statusCode);
    return codes;
  };
  const fives = (status: number) => Array.from({ length: 5 }, () => status);

  it('lets no bad admin token lock a client out of the token endpoint, and no unknown client id an admin', async () => {
    const guesser = '198.51.100.30';
    const guesses = Array.from({ length: 25 }, (_, i) => `rpa_adm_guess${i}`);
    assert.deepEqual(await adminStatuses(guesses, guesser), [
      ...Array.from({ length: 20 }, () => 401),
      ...fives(429),
    ]);
    const token = await requestToken(pub, demo.clientId, demo.clientSecret, { remoteAddress: guesser });
    assert.equal(token.statusCode, 200, token.body);

    const prober = '198.51.100.31';
    for (let i = 0; i < 25; i += 1)
      await requestToken(pub, `rpa_ci_unknown${i}`, 'wrong', { remoteAddress: prober });
    assert.equal(
      (await requestToken(pub, demo.clientId, demo.clientSecret, { remoteAddress: prober })).statusCode,
      429,
    );
    assert.equal((await list(await t.bearer('tenancy:read'), prober)).statusCode, 200);
  });

  it('refuses a stale admin token from an address and serves the other tokens used there', async () => {
    const nat = '198.51.100.40';
    const stale = await createAdminToken(t.runtime.deps, { name: 'stale', scopes: ['tenancy:read'] });
    await revokeAdminToken(t.runtime.deps, { tokenId: stale.token.id });
    assert.deepEqual(
      await adminStatuses(
        Array.from({ length: 8 }, () => stale.value),
        nat,
      ),
      [...fives(401), 429, 429, 429],
    );
    assert.equal((await list(await t.bearer('tenancy:read'), nat)).statusCode, 200);
  });
});
