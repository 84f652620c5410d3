import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAdminToken } from '../../../src/services/admin/create-admin-token.js';
import { listAdminTokens } from '../../../src/services/admin/list-admin-tokens.js';
import { revokeAdminToken } from '../../../src/services/admin/revoke-admin-token.js';
import { auditTrail } from '../../helpers/audit-trail.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

describe(`revokeAdminToken and listAdminTokens on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let now = Date.UTC(2026, 10, 27);
  before(async () => {
    rt = await createTestRuntime({}, { clock: () => now });
  });
  after(() => rt.close());

  it('revokes once, records it once, and lists every token with its state, never a value', async () => {
    // Created a millisecond apart: the list is oldest first.
    const create = (name: string, lifetimeMs?: number) => {
      now += 1;
      return createAdminToken(rt.deps, {
        name,
        scopes: ['audit:read'],
        ...(lifetimeMs ? { lifetimeMs } : {}),
      });
    };
    const kept = await create('kept');
    const ended = await create('ended');
    const short = await create('short', 1_000);
    now += 1_000;
    await revokeAdminToken(rt.deps, { tokenId: ended.token.id });
    await revokeAdminToken(rt.deps, { tokenId: ended.token.id });
    const listed = await listAdminTokens(rt.deps);
    assert.deepEqual(
      listed.map((t) => [t.name, t.state]),
      [
        ['kept', 'active'],
        ['ended', 'revoked'],
        ['short', 'expired'],
      ],
    );
    for (const value of [kept.value, ended.value, short.value])
      assert.ok(!JSON.stringify(listed).includes(value));
    const events = await auditTrail(rt.deps, { action: 'admin_token.revoked' });
    assert.deepEqual(
      events.map((e) => e.targetId),
      [ended.token.id],
    );
  });

  it('refuses an unknown id, and a token given where its id belongs without repeating it', async () => {
    await assert.rejects(revokeAdminToken(rt.deps, { tokenId: 'nope' }), { code: 'NOT_FOUND' });
    const { value } = await createAdminToken(rt.deps, { name: 'leaked', scopes: ['audit:read'] });
    await assert.rejects(revokeAdminToken(rt.deps, { tokenId: value }), (err: Error) => {
      assert.equal((err as { code?: string }).code, 'INVALID_PROPERTY_VALUE');
      assert.ok(!err.message.includes(value));
      return true;
    });
  });
});
