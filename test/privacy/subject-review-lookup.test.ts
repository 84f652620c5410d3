import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery } from 'kysely';
import { createPrivacyRequest } from '../../src/services/privacy/create-privacy-request.js';
import {
  findSubjectReviewsOfRequests,
  subjectReviewsOfRequestsQuery,
} from '../../src/store/repositories/privacy-subjects.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../helpers/test-runtime.js';
import { importReviewsBy, type PrivacyTenant, seedPrivacyTenant } from './privacy-fixtures.js';

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly Plans?: readonly PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

describe(`the worker's look-up of its requests' reviews on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let tenant: PrivacyTenant;
  const requestIds: string[] = [];

  before(async () => {
    rt = await createTestRuntime();
    tenant = await seedPrivacyTenant(rt.deps);
    for (let i = 0; i < 5; i++) {
      const emailAddress = `person-${i}@example.com`;
      await importReviewsBy(
        rt.deps,
        { name: `Person ${i}`, emailAddress },
        { clientName: 'Acme-EN_GB', count: 3 },
      );
      const request = await createPrivacyRequest(rt.deps, {
        type: 'forget',
        environment: 'production',
        applicationId: tenant.applicationId,
        identifiers: { emailAddress },
      });
      requestIds.push(request.id);
    }
  });
  after(() => rt.close());

  it('finds each request its reviews, round-robin', async () => {
    const found = await findSubjectReviewsOfRequests(
      rt.deps.store.db,
      rt.deps.store.dialect,
      requestIds,
      100,
    );
    assert.equal(found.length, 15);
    for (const id of requestIds) assert.equal(found.filter((f) => f.requestId === id).length, 3);
    assert.deepEqual(
      found.map((f) => f.rank),
      [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3],
    );
  });

  it('probes the identifier index once per key, whatever the planner estimates', {
    skip: TEST_DIALECT === 'postgres' ? false : 'PostgreSQL plans only',
  }, async () => {
    // Statistics lag behind a busy queue; when they promise thousands of keys for a few, the
    // planner prefers any join to a nested loop. Forbidding it outright stands for that: the
    // look-up must still be one index probe per key, never a scan of every review identifier.
    const query = subjectReviewsOfRequestsQuery(rt.deps.store.db, 'postgres', requestIds, 100).compile();
    const plan = await rt.deps.store.db.transaction().execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw('set local enable_nestloop = off'));
      const explained = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
      );
      return explained.rows[0]?.['QUERY PLAN'][0].Plan;
    });
    assert.ok(plan);
    const onIdentifiers = nodesOf(plan).filter((n) => n['Relation Name'] === 'review_identifiers');
    assert.ok(onIdentifiers.length > 0, JSON.stringify(plan));
    for (const node of onIdentifiers) {
      assert.equal(node['Index Name'], 'review_identifiers_lookup_idx', JSON.stringify(node));
      assert.notEqual(node['Node Type'], 'Seq Scan');
    }
  });
});
