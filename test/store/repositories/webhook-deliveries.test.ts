import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { claimDueDeliveries } from '../../../src/store/repositories/webhook-deliveries.js';
import { ChosenEarlier } from '../../helpers/chosen-earlier.js';
import { seedPrivacyTenant } from '../../helpers/privacy-fixtures.js';
import { createTestRuntime, type TestRuntime } from '../../helpers/test-runtime.js';

describe('claimDueDeliveries', () => {
  let rt: TestRuntime;
  const now = 1_800_000_000_000;
  const lease = { now, leaseUntil: now + 60_000, limit: 10 };

  before(async () => {
    rt = await createTestRuntime();
    const { applicationId } = await seedPrivacyTenant(rt.deps);
    const db = rt.deps.store.db;
    await db
      .insertInto('webhook_endpoints')
      .values({
        id: 'endpoint-1',
        application_id: applicationId,
        url: 'https://receiver.example/hook',
        created_at: now,
        disabled_at: null,
        disabled_reason: null,
      })
      .execute();
    await db
      .insertInto('webhook_messages')
      .values({
        id: 'message-1',
        application_id: applicationId,
        event_type: 'test',
        payload: '{}',
        created_at: now,
      })
      .execute();
    await db
      .insertInto('webhook_deliveries')
      .values({
        id: 'delivery-1',
        message_id: 'message-1',
        endpoint_id: 'endpoint-1',
        status: 'pending',
        attempts: 0,
        next_attempt_at: now - 1,
        lease_owner: null,
        lease_expires_at: null,
        last_attempt_at: null,
        last_status: null,
        last_error: null,
        finished_at: null,
      })
      .execute();
  });
  after(() => rt.close());

  it('leaves a delivery to the worker whose lease it got after the claim had chosen it', async () => {
    const { store } = rt.deps;
    const claim = (owner: string, plugins: KyselyPlugin[] = []) =>
      store.groupCommit((trx) =>
        claimDueDeliveries(
          plugins.reduce((t, p) => t.withPlugin(p), trx),
          { owner, ...lease },
        ),
      );
    const chosen = store.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('id', '=', 'delivery-1')
      .toOperationNode();
    assert.deepEqual(
      (await claim('worker-b')).map((d) => d.id),
      ['delivery-1'],
    );
    assert.deepEqual(await claim('worker-a', [new ChosenEarlier(chosen)]), []);
    const row = await store.db
      .selectFrom('webhook_deliveries')
      .select(['lease_owner', 'lease_expires_at'])
      .where('id', '=', 'delivery-1')
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { lease_owner: 'worker-b', lease_expires_at: lease.leaseUntil });
  });
});
