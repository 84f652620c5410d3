import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { updatePasskey } from '../../../src/services/tenancy/update-passkey.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

describe(`updatePasskey on ${TEST_DIALECT}`, () => {
  let now = Date.UTC(2026, 10, 27, 12);
  let rt: TestRuntime;
  let demo: DemoCredentials;
  before(async () => {
    rt = await createTestRuntime({}, { clock: () => now });
    demo = await seedDemo(rt.deps, { environment: 'production' });
  });
  after(() => rt.close());

  const auditOf = async (id: string) =>
    (
      await rt.deps.store.db
        .selectFrom('audit_events')
        .select(['action', 'details'])
        .where('target_id', '=', id)
        .orderBy('occurred_at')
        .orderBy('id')
        .execute()
    ).map((e) => ({ action: e.action, details: JSON.parse(e.details) }));

  it('sets an expiry ahead and clears it, recording each change from and to', async () => {
    const id = demo.responsePasskeyId;
    const set = await updatePasskey(rt.deps, { passkeyId: id, expiresAt: now + 60_000 });
    assert.equal(set.expiresAt, now + 60_000);
    now += 1;
    const cleared = await updatePasskey(rt.deps, { passkeyId: id, expiresAt: null });
    assert.equal(cleared.expiresAt, null);
    const trail = (await auditOf(id)).filter((e) => e.action === 'passkey.updated');
    assert.deepEqual(
      trail.map((e) => e.details.expiresAt),
      [
        { from: null, to: now - 1 + 60_000 },
        { from: now - 1 + 60_000, to: null },
      ],
    );
  });

  it('names a passkey made without a name, so a configuration file can adopt it; a taken name is a conflict', async () => {
    const id = demo.responsePasskeyId;
    const named = await updatePasskey(rt.deps, { passkeyId: id, name: 'web-response' });
    assert.equal(named.name, 'web-response');
    const trail = (await auditOf(id)).filter((e) => e.action === 'passkey.updated');
    // Entries of one frozen millisecond have no order of their own: find the rename by its detail.
    assert.deepEqual(trail.find((e) => e.details.name)?.details.name, { from: null, to: 'web-response' });
    await assert.rejects(
      updatePasskey(rt.deps, { passkeyId: demo.privacyPasskeyId, name: 'web-response' }),
      (err: Error & { code?: string; detail?: string }) =>
        err.code === 'CONFLICT' && /already has a passkey named/.test(err.detail ?? ''),
    );
  });

  it('refuses an expiry that is not ahead, and a call that changes nothing', async () => {
    const id = demo.responsePasskeyId;
    for (const expiresAt of [now, now - 1])
      await assert.rejects(updatePasskey(rt.deps, { passkeyId: id, expiresAt }), {
        code: 'INVALID_PROPERTY_VALUE',
        field: 'expiresAt',
      });
    await assert.rejects(updatePasskey(rt.deps, { passkeyId: id }), /nothing to change/);
  });

  it('finds a passkey only in the environment named, and never repeats a passkey value', async () => {
    await assert.rejects(
      updatePasskey(rt.deps, { passkeyId: demo.responsePasskeyId, environment: 'staging', quotaPerDay: 5 }),
      { code: 'NOT_FOUND', message: /in staging/ },
    );
    await assert.rejects(
      updatePasskey(rt.deps, { passkeyId: demo.responsePasskey, quotaPerDay: 5 }),
      (err: Error) => {
        assert.ok(!err.message.includes(demo.responsePasskey.slice(7)));
        return /passkey value, not its id/.test(err.message);
      },
    );
  });

  it('revokes once: revoking again keeps the first time and records nothing more', async () => {
    const id = demo.privacyPasskeyId;
    const first = await updatePasskey(rt.deps, { passkeyId: id, revoke: true });
    assert.deepEqual([first.status, first.revokedAt], ['revoked', now]);
    now += 60_000;
    const again = await updatePasskey(rt.deps, { passkeyId: id, revoke: true });
    assert.equal(again.revokedAt, first.revokedAt);
    assert.equal((await auditOf(id)).filter((e) => e.action === 'passkey.revoked').length, 1);
  });
});
