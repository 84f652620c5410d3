import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { createPrivacyRequest } from '../../src/services/privacy/create-privacy-request.js';
import {
  claimPendingRequests,
  releaseLeases,
  renewLeases,
} from '../../src/store/repositories/privacy-request-leases.js';
import { ChosenEarlier } from '../helpers/chosen-earlier.js';
import { seedPrivacyTenant } from '../helpers/privacy-fixtures.js';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.js';

// The lease rules on privacy_requests; test/store/repositories/webhook-deliveries.test.ts holds
// the same claim rule to webhook_deliveries.
describe('worker leases', () => {
  let rt: TestRuntime;
  let requestId: string;

  before(async () => {
    rt = await createTestRuntime();
    const tenant = await seedPrivacyTenant(rt.deps);
    const request = await createPrivacyRequest(rt.deps, {
      type: 'forget',
      environment: 'production',
      applicationId: tenant.applicationId,
      identifiers: { emailAddress: 'leased@example.com' },
    });
    requestId = request.id;
  });
  after(() => rt.close());

  const leaseOf = () =>
    rt.deps.store.db
      .selectFrom('privacy_requests')
      .select(['lease_owner', 'lease_expires_at'])
      .where('id', '=', requestId)
      .executeTakeFirstOrThrow();

  it('leaves a request to the worker whose lease it got after the claim had chosen it', async () => {
    const { store } = rt.deps;
    const now = rt.deps.clock();
    const claim = (owner: string, plugins: KyselyPlugin[] = []) =>
      store.groupCommit((trx) =>
        claimPendingRequests(
          plugins.reduce((t, p) => t.withPlugin(p), trx),
          { owner, now, leaseUntil: now + 60_000, limit: 10 },
        ),
      );
    const chosen = store.db
      .selectFrom('privacy_requests')
      .select('id')
      .where('id', '=', requestId)
      .toOperationNode();
    assert.deepEqual(
      (await claim('worker-b')).map((r) => r.id),
      [requestId],
    );
    assert.deepEqual(await claim('worker-a', [new ChosenEarlier(chosen)]), []);
    assert.deepEqual(await leaseOf(), { lease_owner: 'worker-b', lease_expires_at: now + 60_000 });
  });

  it('renews and releases only the leases the worker still holds', async () => {
    const { db } = rt.deps.store;
    const leaseUntil = rt.deps.clock() + 120_000;
    assert.deepEqual(await renewLeases(db, { ids: [requestId], owner: 'worker-a', leaseUntil }), []);
    await releaseLeases(db, { ids: [requestId], owner: 'worker-a' });
    assert.equal((await leaseOf()).lease_owner, 'worker-b');
    const renewed = await renewLeases(db, { ids: [requestId], owner: 'worker-b', leaseUntil });
    assert.deepEqual(
      renewed.map((r) => [r.id, r.lease_expires_at]),
      [[requestId, leaseUntil]],
    );
    await releaseLeases(db, { ids: [requestId], owner: 'worker-b' });
    assert.deepEqual(await leaseOf(), { lease_owner: null, lease_expires_at: null });
  });
});
