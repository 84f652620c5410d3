import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseReceipt } from '../../../src/domain/privacy-receipt.js';
import type { ServiceDeps } from '../../../src/services/deps.js';
import { claimPrivacyRequests } from '../../../src/services/privacy/claim-privacy-request.js';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import {
  type ProcessOutcome,
  processPrivacyRequests,
} from '../../../src/services/privacy/process-privacy-request.js';
import { importReviewsBy, type PrivacyTenant, seedPrivacyTenant } from '../../helpers/privacy-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

/** What node-pg throws when the server goes away under a query (no SQLSTATE). */
const connectionLost = () => new Error('Connection terminated unexpectedly');
/** PostgreSQL's answer while it shuts down (admin_shutdown). */
const adminShutdown = () =>
  Object.assign(new Error('terminating connection due to administrator command'), {
    code: '57P01',
    severity: 'FATAL',
  });

/**
 * Deps whose transactions fail, after doing their work (so it is rolled back), on the attempts
 * `failOn` names; `afterCommit` runs after each transaction that did commit.
 */
function faulty(
  deps: ServiceDeps,
  options: { failOn: (attempt: number) => Error | undefined; afterCommit?: () => Promise<void> },
): ServiceDeps {
  let attempts = 0;
  const groupCommit: ServiceDeps['store']['groupCommit'] = async (work, keep) => {
    const value = await deps.store.groupCommit(async (trx) => {
      const result = await work(trx);
      const failure = options.failOn(++attempts);
      if (failure) throw failure;
      return result;
    }, keep);
    await options.afterCommit?.();
    return value;
  };
  return { ...deps, store: { ...deps.store, groupCommit } };
}

describe(`processPrivacyRequests through database faults and beside large erasures on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let tenant: PrivacyTenant;
  let now = Date.now();

  before(async () => {
    rt = await createTestRuntime({ WORKER_BATCH_SIZE: '25', WORKER_LEASE_MS: '1000' }, { clock: () => now });
    tenant = await seedPrivacyTenant(rt.deps);
  });
  after(() => rt.close());

  const request = (type: 'forget' | 'access', authorId: string) =>
    createPrivacyRequest(rt.deps, {
      type,
      environment: 'production',
      applicationId: tenant.applicationId,
      identifiers: { authorId },
    });
  const row = (id: string) =>
    rt.deps.store.db
      .selectFrom('privacy_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const reviewsLeft = async (prefix: string) =>
    (await rt.deps.store.db.selectFrom('reviews').select('id').where('id', 'like', `${prefix}-%`).execute())
      .length;

  it('waits out a lost connection mid-erasure and resumes, completing only once all is erased', async () => {
    await importReviewsBy(
      rt.deps,
      { name: 'Outage Person', authorId: 'outage-1' },
      { clientName: 'Acme-EN_GB', count: 200, prefix: 'outage' },
    );
    const accepted = await request('forget', 'outage-1');
    const claimed = await claimPrivacyRequests(rt.deps, { owner: 'lane-a', limit: 10 });
    assert.deepEqual(
      claimed.map((r) => r.id),
      [accepted.id],
    );
    const failures = new Map([
      [3, connectionLost()],
      [4, adminShutdown()],
      [5, connectionLost()],
      [7, adminShutdown()],
    ]);
    const early: string[] = [];
    const deps = faulty(rt.deps, {
      failOn: (attempt) => failures.get(attempt),
      // After every commit: never COMPLETED while any of the person's reviews is left.
      afterCommit: async () => {
        const left = await reviewsLeft('outage');
        if ((await row(accepted.id)).status === 'COMPLETED' && left > 0) early.push(`${left} left`);
      },
    });
    const outcomes = await processPrivacyRequests(deps, { requests: claimed, owner: 'lane-a' });
    assert.equal(outcomes.get(accepted.id)?.status, 'completed');
    assert.deepEqual(early, [], 'never marked completed before its erasure committed');
    assert.equal(await reviewsLeft('outage'), 0);
    const done = await row(accepted.id);
    assert.equal(done.status, 'COMPLETED');
    assert.equal(parseReceipt(done.receipt)?.['Acme-EN_GB']?.reviews, 200, 'nothing counted twice');
    assert.equal(rt.deps.outages.isDown('database'), false, 'the outage ended with the first commit');
    assert.match(rt.logs.text(), /database unavailable: outage started/);
    assert.match(rt.logs.text(), /database available again: outage ended/);
  });

  it('reports a request as completed, not lost, when the answer to its completing commit was lost', async () => {
    await importReviewsBy(
      rt.deps,
      { name: 'Lost Answer', authorId: 'answer-1' },
      { clientName: 'Acme-EN_GB', count: 30, prefix: 'answer' },
    );
    const accepted = await request('forget', 'answer-1');
    const claimed = await claimPrivacyRequests(rt.deps, { owner: 'lane-answer', limit: 10 });
    let commits = 0;
    const groupCommit: ServiceDeps['store']['groupCommit'] = async (work, keep) => {
      const value = await rt.deps.store.groupCommit(work, keep);
      // 30 reviews in batches of 25: the second commit completes the request.
      if (++commits === 2) throw connectionLost();
      return value;
    };
    const deps = { ...rt.deps, store: { ...rt.deps.store, groupCommit } };
    const outcome = (await processPrivacyRequests(deps, { requests: claimed, owner: 'lane-answer' })).get(
      accepted.id,
    );
    assert.equal(outcome?.status, 'completed');
    assert.equal(outcome?.status === 'completed' && outcome.receipt['Acme-EN_GB']?.reviews, 30);
    assert.equal(await reviewsLeft('answer'), 0);
  });

  it('reports small requests as they complete, and keeps every lease while a large erasure runs', async () => {
    await importReviewsBy(
      rt.deps,
      { name: 'Big Person', authorId: 'fair-big' },
      { clientName: 'Acme-EN_GB', count: 1500, prefix: 'fairbig' },
    );
    for (let p = 0; p < 5; p++) {
      await importReviewsBy(
        rt.deps,
        { name: `Small ${p}`, authorId: `fair-small-${p}` },
        { clientName: 'Acme-DE_DE', count: 2, prefix: `fairsmall${p}` },
      );
    }
    const big = await request('forget', 'fair-big');
    const small = [];
    for (let p = 0; p < 4; p++) small.push(await request('forget', `fair-small-${p}`));
    const access = await request('access', 'fair-small-4');
    const claimed = await claimPrivacyRequests(rt.deps, { owner: 'lane-fair', limit: 100 });
    assert.equal(claimed.length, 6);

    const order: { id: string; outcome: ProcessOutcome['status'] }[] = [];
    const takenByOthers: string[] = [];
    const outcomes = await processPrivacyRequests(rt.deps, {
      requests: claimed,
      owner: 'lane-fair',
      onOutcome: (r, outcome) => {
        order.push({ id: r.id, outcome: outcome.status });
      },
      // Each batch of the large erasure takes 0.4 s by the clock: with a lease of 1 s, every lease
      // of the claim would run out within three batches unless the batches extend it.
      afterBatch: async ({ requestId }) => {
        if (requestId !== big.id) return;
        now += 400;
        const taken = await claimPrivacyRequests(rt.deps, { owner: 'other-worker', limit: 100 });
        takenByOthers.push(...taken.map((r) => r.id));
      },
    });
    assert.deepEqual(takenByOthers, [], 'no other worker took over a request still being worked on');
    for (const r of [big, ...small, access]) assert.equal(outcomes.get(r.id)?.status, 'completed');
    assert.equal(order.length, 6, 'each reported once');
    assert.equal(order.at(-1)?.id, big.id, 'the large erasure is reported last');
    for (const o of order) assert.equal(o.outcome, 'completed');
    assert.equal(await reviewsLeft('fairbig'), 0);
    assert.equal(parseReceipt((await row(big.id)).receipt)?.['Acme-EN_GB']?.reviews, 1500);
  });

  it('reports the small requests before the large erasure has committed its second batch', async () => {
    await importReviewsBy(
      rt.deps,
      { name: 'Big Two', authorId: 'early-big' },
      { clientName: 'Acme-EN_GB', count: 300, prefix: 'earlybig' },
    );
    await importReviewsBy(
      rt.deps,
      { name: 'Small Two', authorId: 'early-small' },
      { clientName: 'Acme-EN_GB', count: 3, prefix: 'earlysmall' },
    );
    const big = await request('forget', 'early-big');
    const small = await request('forget', 'early-small');
    const claimed = await claimPrivacyRequests(rt.deps, { owner: 'lane-early', limit: 100 });
    let bigBatches = 0;
    let reportedAfter: number | undefined;
    await processPrivacyRequests(rt.deps, {
      requests: claimed,
      owner: 'lane-early',
      afterBatch: ({ requestId }) => {
        if (requestId === big.id) bigBatches++;
      },
      onOutcome: (r) => {
        if (r.id === small.id) reportedAfter = bigBatches;
      },
    });
    assert.ok(reportedAfter !== undefined && reportedAfter <= 1, `reported after ${reportedAfter} batches`);
  });
});
