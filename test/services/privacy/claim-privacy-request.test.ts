import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseReceipt, type Receipt } from '../../../src/domain/privacy-receipt.js';
import type { ServiceDeps } from '../../../src/services/deps.js';
import { claimPrivacyRequests } from '../../../src/services/privacy/claim-privacy-request.js';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import { processPrivacyRequests } from '../../../src/services/privacy/process-privacy-request.js';
import { importReviews } from '../../../src/services/reviews/import-reviews.js';
import {
  drainPrivacyQueue,
  importReviewsBy,
  type PrivacyTenant,
  respondTo,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

/** Imports, in one go, `perClient` reviews in each demo client for every person `${prefix}-N`. */
async function importPeople(
  deps: ServiceDeps,
  prefix: string,
  people: number,
  perClient: { 'Acme-EN_GB': number; 'Acme-DE_DE': number },
): Promise<void> {
  async function* lines() {
    for (let p = 0; p < people; p++) {
      for (const [clientName, count] of Object.entries(perClient)) {
        for (let i = 0; i < count; i++) {
          yield JSON.stringify({
            id: `${prefix}-${p}-${clientName}-${i}`,
            clientName,
            rating: 4,
            title: 'Fine',
            text: 'Arrived on time',
            submittedAt: '2026-03-01T10:00:00Z',
            author: { name: `Person ${prefix} ${p}`, authorId: `${prefix}-${p}` },
          });
        }
      }
    }
  }
  const total = people * (perClient['Acme-EN_GB'] + perClient['Acme-DE_DE']);
  const result = await importReviews(deps, { lines: lines(), environment: 'production' });
  assert.equal(result.imported, total);
}

function forget(deps: ServiceDeps, tenant: PrivacyTenant, authorId: string) {
  return createPrivacyRequest(deps, {
    type: 'forget',
    environment: 'production',
    applicationId: tenant.applicationId,
    identifiers: { authorId },
  });
}

const counts = (reviews: number, clientResponses = 0, accessExports = 0) => ({
  reviews,
  clientResponses,
  // Name and author id on every review.
  profileFields: 2 * reviews,
  accessExports,
});

describe(`forget requests erased together on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let tenant: PrivacyTenant;

  before(async () => {
    rt = await createTestRuntime({ WORKER_BATCH_SIZE: '100', WORKER_LEASE_MS: '60000' });
    tenant = await seedPrivacyTenant(rt.deps);
  });
  after(() => rt.close());

  const requestRows = (ids: readonly string[]) =>
    rt.deps.store.db.selectFrom('privacy_requests').selectAll().where('id', 'in', ids).execute();
  const reviewsLeft = async (prefix: string) =>
    (await rt.deps.store.db.selectFrom('reviews').select('id').where('id', 'like', `${prefix}-%`).execute())
      .length;

  it('claims at most its limit, oldest first, and leaves the rest to other workers', async () => {
    const deps = rt.deps;
    const accepted = [];
    for (let p = 0; p < 5; p++) {
      accepted.push(await forget(deps, tenant, `limit-${p}`));
      // Distinct submission times, so "oldest first" has one answer.
      await new Promise((r) => setTimeout(r, 3));
    }
    const first = await claimPrivacyRequests(deps, { owner: 'limit-a', limit: 2 });
    assert.deepEqual(
      first.map((r) => r.id),
      accepted.slice(0, 2).map((r) => r.id),
    );
    const rest = await claimPrivacyRequests(deps, { owner: 'limit-b', limit: 10 });
    assert.deepEqual(
      rest.map((r) => r.id).sort(),
      accepted
        .slice(2)
        .map((r) => r.id)
        .sort(),
    );
    assert.equal(await drainPrivacyQueue(deps), 0, 'all leased');
    for (const [owner, requests] of [
      ['limit-a', first],
      ['limit-b', rest],
    ] as const) {
      const outcomes = await processPrivacyRequests(deps, { requests, owner });
      for (const r of requests) assert.equal(outcomes.get(r.id)?.status, 'completed');
    }
  });

  it('completes 200 requests accepted at once, each exactly once and with its own receipt', async () => {
    const deps = rt.deps;
    await importPeople(deps, 'many', 200, { 'Acme-EN_GB': 2, 'Acme-DE_DE': 1 });
    // Person 0's first review has a response, and an earlier access export holds person 1.
    await respondTo(deps, tenant.applicationId, ['many-0-Acme-EN_GB-0']);
    await createPrivacyRequest(deps, {
      type: 'access',
      environment: 'production',
      applicationId: tenant.applicationId,
      identifiers: { authorId: 'many-1' },
    });
    assert.equal(await drainPrivacyQueue(deps), 1);

    const accepted = await Promise.all(
      Array.from({ length: 200 }, (_, p) => forget(deps, tenant, `many-${p}`)),
    );
    const claimed = await claimPrivacyRequests(deps, { owner: 'batch-worker', limit: 1000 });
    assert.equal(claimed.length, 200, 'one claim takes them all');

    const progress: number[] = [];
    const outcomes = await processPrivacyRequests(deps, {
      requests: claimed,
      owner: 'batch-worker',
      afterBatch: ({ receipt }) => {
        progress.push(Object.values(receipt).reduce((n, c) => n + c.reviews, 0));
      },
    });
    assert.equal(outcomes.size, 200);
    for (const [, outcome] of outcomes) assert.equal(outcome.status, 'completed');
    assert.ok(
      progress.every((n) => n <= 3),
      'no review counted twice',
    );

    const rows = await requestRows(accepted.map((r) => r.id));
    const byId = new Map(rows.map((r) => [r.id, r]));
    accepted.forEach((request, p) => {
      const row = byId.get(request.id);
      assert.equal(row?.status, 'COMPLETED');
      assert.equal(row?.lease_owner, null);
      const expected: Receipt = {
        'Acme-DE_DE': counts(1, 0, p === 1 ? 1 : 0),
        'Acme-EN_GB': counts(2, p === 0 ? 1 : 0, p === 1 ? 1 : 0),
      };
      assert.deepEqual(parseReceipt(row?.receipt ?? null), expected, `receipt of person ${p}`);
    });
    assert.equal(await reviewsLeft('many'), 0);
    const keys = await deps.store.db
      .selectFrom('privacy_pending_keys')
      .select('request_id')
      .where(
        'request_id',
        'in',
        accepted.map((r) => r.id),
      )
      .execute();
    assert.equal(keys.length, 0, 'pending keys released');
    const suppressed = await deps.store.db
      .selectFrom('privacy_suppressions')
      .select('subject_id')
      .distinct()
      .where(
        'subject_id',
        'in',
        accepted.map((r) => r.id),
      )
      .execute();
    assert.equal(suppressed.length, 200, 'every subject suppressed under its own request');
    assert.deepEqual(await claimPrivacyRequests(deps, { owner: 'another-worker', limit: 1000 }), []);
  });

  it('commits nothing of a failed batch transaction, and completes every request on retry', async () => {
    const deps = rt.deps;
    // 50 people × 3 reviews with batches of 100: the first batch takes two reviews of each (no one
    // finished), the second the rest, and that one fails before its commit.
    await importPeople(deps, 'fail', 50, { 'Acme-EN_GB': 2, 'Acme-DE_DE': 1 });
    const accepted = await Promise.all(
      Array.from({ length: 50 }, (_, p) => forget(deps, tenant, `fail-${p}`)),
    );
    const claimed = await claimPrivacyRequests(deps, { owner: 'failing-worker', limit: 1000 });
    assert.equal(claimed.length, 50);

    let transactions = 0;
    const failing: ServiceDeps = {
      ...deps,
      store: {
        ...deps.store,
        groupCommit: (work, keep) =>
          deps.store.groupCommit(async (trx) => {
            const value = await work(trx);
            transactions++;
            if (transactions === 2) throw new Error('storage went away');
            return value;
          }, keep),
      },
    };
    await assert.rejects(
      processPrivacyRequests(failing, { requests: claimed, owner: 'failing-worker' }),
      /storage went away/,
    );
    const rows = await requestRows(accepted.map((r) => r.id));
    for (const row of rows) {
      assert.equal(row.status, 'PENDING', 'none completed');
      assert.equal(row.lease_owner, null, 'handed back');
      const receipt = parseReceipt(row.receipt);
      const erased = (receipt?.['Acme-EN_GB']?.reviews ?? 0) + (receipt?.['Acme-DE_DE']?.reviews ?? 0);
      assert.equal(erased, 2, 'the first batch stays done');
    }
    assert.equal(await reviewsLeft('fail'), 50);
    const suppressed = await deps.store.db
      .selectFrom('privacy_suppressions')
      .select('subject_id')
      .where(
        'subject_id',
        'in',
        accepted.map((r) => r.id),
      )
      .execute();
    assert.equal(suppressed.length, 0);

    assert.equal(await drainPrivacyQueue(deps), 50);
    for (const row of await requestRows(accepted.map((r) => r.id))) {
      assert.equal(row.status, 'COMPLETED');
      assert.deepEqual(parseReceipt(row.receipt), {
        'Acme-DE_DE': counts(1),
        'Acme-EN_GB': counts(2),
      });
    }
    assert.equal(await reviewsLeft('fail'), 0);
  });

  it('erases a person with many reviews in bounded batches beside small ones in the same claim', async () => {
    const deps = rt.deps;
    await importReviewsBy(
      deps,
      { name: 'Max Many', authorId: 'max-many' },
      { clientName: 'Acme-EN_GB', count: 250, prefix: 'max' },
    );
    await importPeople(deps, 'small', 20, { 'Acme-EN_GB': 1, 'Acme-DE_DE': 1 });
    const big = await forget(deps, tenant, 'max-many');
    const small = await Promise.all(Array.from({ length: 20 }, (_, p) => forget(deps, tenant, `small-${p}`)));
    const claimed = await claimPrivacyRequests(deps, { owner: 'mixed-worker', limit: 1000 });
    assert.equal(claimed.length, 21);

    // Reviews each batch transaction erased, counted inside it.
    const batches: number[] = [];
    const ours = async (trx: Parameters<Parameters<ServiceDeps['store']['groupCommit']>[0]>[0]) =>
      Number(
        (
          await trx
            .selectFrom('reviews')
            .select((eb) => eb.fn.countAll().as('n'))
            .where((eb) => eb.or([eb('id', 'like', 'max-%'), eb('id', 'like', 'small-%')]))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const counting: ServiceDeps = {
      ...deps,
      store: {
        ...deps.store,
        groupCommit: (work, keep) =>
          deps.store.groupCommit(async (trx) => {
            const before = await ours(trx);
            const value = await work(trx);
            batches.push(before - (await ours(trx)));
            return value;
          }, keep),
      },
    };
    const outcomes = await processPrivacyRequests(counting, { requests: claimed, owner: 'mixed-worker' });
    for (const request of [big, ...small]) assert.equal(outcomes.get(request.id)?.status, 'completed');
    assert.ok(batches.length >= 3, `250 reviews in batches of 100 take three or more (${batches})`);
    for (const erased of batches) assert.ok(erased <= 100, `a batch erased ${erased} reviews`);

    const rows = new Map((await requestRows([big.id, ...small.map((r) => r.id)])).map((r) => [r.id, r]));
    assert.deepEqual(parseReceipt(rows.get(big.id)?.receipt ?? null), {
      'Acme-DE_DE': counts(0),
      'Acme-EN_GB': counts(250),
    });
    for (const request of small) {
      assert.equal(rows.get(request.id)?.status, 'COMPLETED');
      assert.deepEqual(parseReceipt(rows.get(request.id)?.receipt ?? null), {
        'Acme-DE_DE': counts(1),
        'Acme-EN_GB': counts(1),
      });
    }
    assert.equal(await reviewsLeft('max'), 0);
    assert.equal(await reviewsLeft('small'), 0);
  });
});
