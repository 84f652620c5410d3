import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Compilable, CompiledQuery } from 'kysely';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import {
  findRequestsNamingSubjects,
  requestsNamingSubjectsQuery,
} from '../../../src/store/repositories/privacy-request-identifiers.js';
import {
  findSubjectReviewsOfRequests,
  subjectReviewsOfRequestsQuery,
} from '../../../src/store/repositories/privacy-subjects.js';
import {
  drainPrivacyQueue,
  importReviewsBy,
  type PrivacyTenant,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly Plans?: readonly PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

const POSTGRES_ONLY = { skip: TEST_DIALECT === 'postgres' ? false : 'PostgreSQL plans only' };

/**
 * Statistics lag behind a busy queue; when they promise thousands of keys for a few, the planner
 * prefers any join to a nested loop. Forbidding nested loops outright stands for that: each key
 * must still be one probe of `index`, never a scan of every row of `table`.
 */
async function assertProbesPerKey(
  rt: TestRuntime,
  query: Compilable<unknown>,
  table: string,
  index: string,
): Promise<void> {
  const compiled = query.compile();
  const plan = await rt.deps.store.db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw('set local enable_nestloop = off'));
    const explained = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
    );
    return explained.rows[0]?.['QUERY PLAN'][0].Plan;
  });
  assert.ok(plan);
  const onTable = nodesOf(plan).filter((n) => n['Relation Name'] === table);
  assert.ok(onTable.length > 0, JSON.stringify(plan));
  for (const node of onTable) {
    assert.equal(node['Index Name'], index, JSON.stringify(node));
    assert.notEqual(node['Node Type'], 'Seq Scan');
  }
}

describe(`the privacy worker's look-ups by subject key on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let tenant: PrivacyTenant;
  const requestIds: string[] = [];
  let accessId: string;
  let forgetId: string;

  before(async () => {
    rt = await createTestRuntime();
    tenant = await seedPrivacyTenant(rt.deps);
    const fileFor = (type: 'access' | 'forget', emailAddress: string) =>
      createPrivacyRequest(rt.deps, {
        type,
        environment: 'production',
        applicationId: tenant.applicationId,
        clientNames: ['Acme-EN_GB'],
        identifiers: { emailAddress },
      });
    // Person 9 asked for her data in Acme-EN_GB, and it was sent; now she asks to be forgotten
    // there. The completed access request named her key: its export must go with her reviews.
    const nine = { name: 'Person 9', emailAddress: 'person-9@example.com' };
    await importReviewsBy(rt.deps, nine, { clientName: 'Acme-EN_GB', count: 2 });
    accessId = (await fileFor('access', nine.emailAddress)).id;
    await drainPrivacyQueue(rt.deps);
    forgetId = (await fileFor('forget', nine.emailAddress)).id;
    // Five people with three reviews each, every one with a pending forget request.
    for (let i = 0; i < 5; i++) {
      const emailAddress = `person-${i}@example.com`;
      await importReviewsBy(
        rt.deps,
        { name: `Person ${i}`, emailAddress },
        { clientName: 'Acme-EN_GB', count: 3 },
      );
      requestIds.push((await fileFor('forget', emailAddress)).id);
    }
  });
  after(() => rt.close());

  it("finds each request's reviews, round-robin", async () => {
    const found = await findSubjectReviewsOfRequests(rt.deps.store.db, requestIds, 100);
    assert.equal(found.length, 15);
    for (const id of requestIds) assert.equal(found.filter((f) => f.requestId === id).length, 3);
    assert.deepEqual(
      found.map((f) => f.rank),
      [1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3],
    );
  });

  it('finds the other requests that named a subject key, in its client', async () => {
    assert.deepEqual(await findRequestsNamingSubjects(rt.deps.store.db, requestIds), []);
    const naming = await findRequestsNamingSubjects(rt.deps.store.db, [forgetId]);
    assert.equal(naming.length, 1, JSON.stringify(naming));
    assert.equal(naming[0]?.subjectRequestId, forgetId);
    assert.equal(naming[0]?.requestId, accessId);
  });

  it(
    'probes the review identifier index once per subject key, whatever the planner estimates',
    POSTGRES_ONLY,
    async () => {
      await assertProbesPerKey(
        rt,
        subjectReviewsOfRequestsQuery(rt.deps.store.db, requestIds, 100),
        'review_identifiers',
        'review_identifiers_lookup_idx',
      );
    },
  );

  it(
    'probes the request identifier index once per subject key, whatever the planner estimates',
    POSTGRES_ONLY,
    async () => {
      await assertProbesPerKey(
        rt,
        requestsNamingSubjectsQuery(rt.deps.store.db, [...requestIds, forgetId]),
        'privacy_request_identifiers',
        'privacy_request_identifiers_lookup_idx',
      );
    },
  );
});
