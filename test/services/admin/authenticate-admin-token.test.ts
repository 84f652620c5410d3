import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authenticateAdminToken } from '../../../src/services/admin/authenticate-admin-token.js';
import { createAdminToken } from '../../../src/services/admin/create-admin-token.js';
import { revokeAdminToken } from '../../../src/services/admin/revoke-admin-token.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

describe(`authenticateAdminToken on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let now = Date.UTC(2026, 10, 27);
  let reader: { id: string; value: string };
  before(async () => {
    rt = await createTestRuntime({}, { clock: () => now });
    const r = await createAdminToken(rt.deps, { name: 'reader', scopes: ['tenancy:read', 'audit:read'] });
    reader = { id: r.token.id, value: r.value };
  });
  after(() => rt.close());

  it('answers the token when it is active and holds the scope', async () => {
    const token = await authenticateAdminToken(rt.deps, { value: reader.value, scope: 'tenancy:read' });
    assert.equal(token.id, reader.id);
  });

  it('refuses a scope the token lacks, naming the scope', async () => {
    await assert.rejects(authenticateAdminToken(rt.deps, { value: reader.value, scope: 'tenancy:write' }), {
      code: 'INSUFFICIENT_SCOPE',
      message: 'this call needs the scope tenancy:write',
    });
  });

  it('gives one answer for an unknown value, another credential, an expired and a revoked token', async () => {
    const expiring = await createAdminToken(rt.deps, {
      name: 'short',
      scopes: ['tenancy:read'],
      lifetimeMs: 60_000,
    });
    const revoked = await createAdminToken(rt.deps, { name: 'gone', scopes: ['tenancy:read'] });
    await revokeAdminToken(rt.deps, { tokenId: revoked.token.id });
    now += 60_000;
    const values = [`${reader.value.slice(0, -1)}x`, 'rpa_pk_abc', '', expiring.value, revoked.value];
    for (const value of values)
      await assert.rejects(authenticateAdminToken(rt.deps, { value, scope: 'tenancy:read' }), {
        code: 'INVALID_TOKEN',
      });
  });
});
