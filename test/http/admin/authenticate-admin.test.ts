import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAdminToken } from '../../../src/services/admin/create-admin-token.js';
import { revokeAdminToken } from '../../../src/services/admin/revoke-admin-token.js';
import { createTestAdminApp, type TestAdminApp } from '../../helpers/test-admin-app.js';
import { TEST_DIALECT } from '../../helpers/test-runtime.js';

describe(`admin authentication on ${TEST_DIALECT}`, () => {
  let t: TestAdminApp;
  let now = Date.UTC(2026, 10, 27, 12);
  before(async () => {
    t = await createTestAdminApp({ AUTH_FAILURE_LIMIT: '5' }, { clock: () => now });
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
