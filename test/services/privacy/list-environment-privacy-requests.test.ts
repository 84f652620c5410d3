import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import { listEnvironmentPrivacyRequests } from '../../../src/services/privacy/list-environment-privacy-requests.js';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import type { PageOrder } from '../../../src/store/keyset-page.js';
import { drainPrivacyQueue, seedPrivacyTenant } from '../../helpers/privacy-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

describe(`listEnvironmentPrivacyRequests on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let now = Date.UTC(2026, 10, 28, 9, 0, 0);
  let first: string;
  let other: string;
  // Request ids, oldest first.
  const ids: string[] = [];

  before(async () => {
    rt = await createTestRuntime({}, { clock: () => now });
    first = (await seedPrivacyTenant(rt.deps)).applicationId;
    const staging = (await seedPrivacyTenant(rt.deps, 'staging')).applicationId;
    other = (
      await createApplication(rt.deps, {
        environment: 'production',
        name: 'Other',
        clientNames: ['Acme-DE_DE'],
      })
    ).application.id;
    const file = async (applicationId: string, type: 'forget' | 'access', authorId: string) =>
      (
        await createPrivacyRequest(rt.deps, {
          type,
          environment: applicationId === staging ? 'staging' : 'production',
          applicationId,
          identifiers: { authorId },
        })
      ).id;
    now += 1000;
    ids.push(await file(first, 'forget', 'p-0'));
    await drainPrivacyQueue(rt.deps);
    now += 1000;
    // Three at one instant: the id orders them.
    ids.push(
      ...[
        await file(first, 'access', 'p-1'),
        await file(other, 'forget', 'p-2'),
        await file(other, 'access', 'p-3'),
      ].sort(),
    );
    await file(staging, 'forget', 'p-4');
  });
  after(() => rt.close());

  async function every(filter: { type?: 'forget' | 'access'; applicationId?: string; order?: PageOrder }) {
    const found: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await listEnvironmentPrivacyRequests(rt.deps, {
        environment: 'production',
        limit: 1,
        ...filter,
        ...(cursor ? { cursor } : {}),
      });
      found.push(...page.items.map((r) => r.id));
      if (page.nextCursor === null) return found;
      cursor = page.nextCursor;
    }
  }

  it("lists every application's requests of the environment, by submission time either way", async () => {
    assert.deepEqual(await every({}), ids);
    assert.deepEqual(await every({ order: 'desc' }), ids.toReversed());
    assert.equal((await every({ type: 'forget' })).length, 2);
    assert.equal((await every({ applicationId: other, order: 'desc' })).length, 2);
    const page = await listEnvironmentPrivacyRequests(rt.deps, { environment: 'staging' });
    assert.equal(page.items.length, 1);
  });

  it('describes a request by its state and its clients, with no field for whom it names', async () => {
    const page = await listEnvironmentPrivacyRequests(rt.deps, {
      environment: 'production',
      status: 'COMPLETED',
    });
    const [done] = page.items;
    assert.ok(done);
    assert.deepEqual(Object.keys(done).sort(), [
      'applicationId',
      'clientNames',
      'completedAt',
      'dueAt',
      'environment',
      'id',
      'status',
      'submittedAt',
      'type',
    ]);
    assert.equal(done.id, ids[0]);
    assert.equal(done.applicationId, first);
    assert.deepEqual(done.clientNames, ['Acme-DE_DE', 'Acme-EN_GB']);
    assert.equal(typeof done.completedAt, 'number');
    assert.ok(!JSON.stringify(page).includes('p-0'));
  });
});
