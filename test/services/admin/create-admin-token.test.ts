import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createAdminToken,
  MAX_ADMIN_TOKEN_LIFETIME_MS,
} from '../../../src/services/admin/create-admin-token.js';
import { auditTrail } from '../../helpers/audit-trail.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

describe(`createAdminToken on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let now = Date.UTC(2026, 10, 27);
  before(async () => {
    rt = await createTestRuntime({}, { clock: () => now });
  });
  after(() => rt.close());

  it('returns the value once, with its prefix, and stores only its digest', async () => {
    const { token, value } = await createAdminToken(rt.deps, {
      name: ' onboarding job ',
      scopes: ['tenancy:read', 'tenancy:write'],
      lifetimeMs: 90 * 86_400_000,
    });
    assert.match(value, /^rpa_adm_[A-Za-z0-9_-]{43}$/);
    assert.equal(token.name, 'onboarding job');
    assert.deepEqual(token.scopes, ['tenancy:read', 'tenancy:write']);
    assert.equal(token.keyHint, value.slice(-4));
    assert.equal(token.expiresAt, now + 90 * 86_400_000);
    const rows = await rt.deps.store.db.selectFrom('admin_tokens').selectAll().execute();
    assert.equal(rows.length, 1);
    assert.ok(!JSON.stringify(rows).includes(value), 'the value is stored');
    assert.notEqual(rows[0]?.token_hash, value);
  });

  it('records the creation in the audit trail without the value', async () => {
    now += 1;
    const { token, value } = await createAdminToken(rt.deps, { name: 'audit', scopes: ['audit:read'] });
    const events = await auditTrail(rt.deps, { action: 'admin_token.created' });
    const event = events.find((e) => e.targetId === token.id);
    assert.ok(event);
    assert.deepEqual(event.details, { name: 'audit', scopes: 'audit:read', expiresAt: null });
    assert.ok(!JSON.stringify(events).includes(value));
  });

  it('refuses an empty name, no scope, and a lifetime out of bounds', async () => {
    const cases = [
      [{ name: '  ', scopes: ['audit:read'] as const }, 'name'],
      [{ name: 'x', scopes: [] as const }, 'scopes'],
      [{ name: 'x', scopes: ['audit:read'] as const, lifetimeMs: 0 }, 'expiresIn'],
      [
        { name: 'x', scopes: ['audit:read'] as const, lifetimeMs: MAX_ADMIN_TOKEN_LIFETIME_MS + 1 },
        'expiresIn',
      ],
    ] as const;
    for (const [input, field] of cases)
      await assert.rejects(createAdminToken(rt.deps, input), { code: 'INVALID_PROPERTY_VALUE', field });
  });
});
