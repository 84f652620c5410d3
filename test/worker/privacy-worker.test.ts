import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseReceipt } from '../../src/domain/privacy-receipt.js';
import { claimPrivacyRequest } from '../../src/services/privacy/claim-privacy-request.js';
import { createPrivacyRequest } from '../../src/services/privacy/create-privacy-request.js';
import { processPrivacyRequest } from '../../src/services/privacy/process-privacy-request.js';
import { startPrivacyWorker } from '../../src/worker/privacy-worker.js';
import {
  drainPrivacyQueue,
  importReviewsBy,
  type PrivacyTenant,
  privacyClient,
  seedPrivacyTenant,
} from '../helpers/privacy-fixtures.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import {
  createTestApp,
  createTestRuntime,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestApp,
  type TestRuntime,
} from '../helpers/test-runtime.js';

describe(`privacy worker in-process on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  let tenant: PrivacyTenant;
  let now = Date.parse('2026-06-01T00:00:00.000Z');

  before(async () => {
    t = await createTestApp(
      // An idle worker would wait ten minutes: only the wake-up signal can make these tests finish.
      { WORKER_POLL_INTERVAL_MS: '600000', WORKER_BATCH_SIZE: '3', WORKER_LEASE_MS: '60000' },
      { clock: () => now },
    );
    tenant = await seedPrivacyTenant(t.runtime.deps);
  });
  after(() => t.close());

  const row = (id: string) =>
    t.runtime.deps.store.db
      .selectFrom('privacy_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('starts on a new request at once, woken by the in-process signal', { timeout: 30_000 }, async () => {
    await importReviewsBy(
      t.runtime.deps,
      { name: 'Jo', authorId: 'jo-1' },
      { clientName: 'Acme-EN_GB', count: 7 },
    );
    const completed = new Promise<void>((resolve) => {
      const worker = startPrivacyWorker(t.runtime.deps, {
        afterBatch: ({ receipt }) => {
          if (receipt['Acme-EN_GB']?.reviews === 7) void worker.stop().then(resolve);
        },
      });
    });
    // Let the worker settle into its idle wait before the request arrives.
    await new Promise((r) => setTimeout(r, 50));
    const res = await privacyClient(t.app, tenant).post('forget', { authorId: 'jo-1' });
    assert.equal(res.statusCode, 201);
    await completed;
    const done = await row(res.json().id);
    assert.equal(done.status, 'COMPLETED');
    assert.equal(parseReceipt(done.receipt)?.['Acme-EN_GB']?.reviews, 7);
  });

  it('hands a request back between batches when stopped', { timeout: 30_000 }, async () => {
    await importReviewsBy(
      t.runtime.deps,
      { name: 'Kim', authorId: 'kim-1' },
      { clientName: 'Acme-DE_DE', count: 9 },
    );
    const request = await createPrivacyRequest(t.runtime.deps, {
      type: 'forget',
      environment: 'production',
      applicationId: tenant.applicationId,
      identifiers: { authorId: 'kim-1' },
    });
    let stopped: Promise<void> | undefined;
    await new Promise<void>((resolve) => {
      const worker = startPrivacyWorker(t.runtime.deps, {
        afterBatch: () => {
          stopped ??= worker.stop();
          resolve();
        },
      });
    });
    await stopped;
    const left = await row(request.id);
    assert.equal(left.status, 'PENDING');
    assert.equal(left.lease_owner, null);
    assert.equal(parseReceipt(left.receipt)?.['Acme-DE_DE']?.reviews, 3);
    await drainPrivacyQueue(t.runtime.deps);
    const done = await row(request.id);
    assert.equal(parseReceipt(done.receipt)?.['Acme-DE_DE']?.reviews, 9);
  });

  it('fences a worker whose lease ran out: it stops, and the new holder finishes alone', async () => {
    await importReviewsBy(
      t.runtime.deps,
      { name: 'Lee', authorId: 'lee-1' },
      { clientName: 'Acme-EN_GB', count: 4 },
    );
    const request = await createPrivacyRequest(t.runtime.deps, {
      type: 'forget',
      environment: 'production',
      applicationId: tenant.applicationId,
      identifiers: { authorId: 'lee-1' },
    });
    const first = await claimPrivacyRequest(t.runtime.deps, { owner: 'worker-a' });
    assert.equal(first?.id, request.id);
    assert.equal(await claimPrivacyRequest(t.runtime.deps, { owner: 'worker-b' }), undefined, 'lease holds');
    now += 60_001;
    const second = await claimPrivacyRequest(t.runtime.deps, { owner: 'worker-b' });
    assert.equal(second?.id, request.id);
    assert.ok(first);
    assert.deepEqual(await processPrivacyRequest(t.runtime.deps, { request: first, owner: 'worker-a' }), {
      status: 'lease-lost',
    });
    assert.equal(parseReceipt((await row(request.id)).receipt), null, 'the fenced worker changed nothing');
    assert.ok(second);
    const outcome = await processPrivacyRequest(t.runtime.deps, { request: second, owner: 'worker-b' });
    assert.equal(outcome.status, 'completed');
    assert.equal(parseReceipt((await row(request.id)).receipt)?.['Acme-EN_GB']?.reviews, 4);
  });
});

/**
 * A real PostgreSQL refusing every connection in the middle of an erasure, then coming back: the
 * worker finishes the request without a restart. Needs PostgreSQL (a SQLite file cannot go away).
 * A reset socket also raises an 'error' event on the pg clients checked out at the time, which
 * must not end the process (src/store/database.ts).
 */
describe('privacy worker through a PostgreSQL outage', { skip: TEST_DIALECT !== 'postgres' }, () => {
  let proxy: TcpProxy;
  let rt: TestRuntime;
  let tenant: PrivacyTenant;

  before(async () => {
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    rt = await createTestRuntime(
      { WORKER_BATCH_SIZE: '20', WORKER_CONCURRENCY: '2', WORKER_POLL_INTERVAL_MS: '50' },
      { databaseUrl: proxy.url(TEST_DATABASE_URL) },
    );
    tenant = await seedPrivacyTenant(rt.deps);
  });
  after(async () => {
    proxy.setMode('pass');
    await rt.close();
    await proxy.close();
  });

  it('resumes a half-done erasure once the database is back, and completes it once', {
    timeout: 60_000,
  }, async () => {
    await importReviewsBy(
      rt.deps,
      { name: 'Proxy Person', authorId: 'proxy-1' },
      { clientName: 'Acme-EN_GB', count: 300, prefix: 'proxied' },
    );
    const request = await createPrivacyRequest(rt.deps, {
      type: 'forget',
      environment: 'production',
      applicationId: tenant.applicationId,
      identifiers: { authorId: 'proxy-1' },
    });
    let batches = 0;
    let back: Promise<void> | undefined;
    const worker = startPrivacyWorker(rt.deps, {
      owner: 'proxied-worker',
      afterBatch: () => {
        if (++batches !== 3) return;
        proxy.setMode('refuse');
        back = new Promise((resolve) =>
          setTimeout(() => {
            proxy.setMode('pass');
            resolve();
          }, 1_500),
        );
      },
    });
    const row = () =>
      rt.deps.store.db
        .selectFrom('privacy_requests')
        .selectAll()
        .where('id', '=', request.id)
        .executeTakeFirst();
    try {
      const until = Date.now() + 45_000;
      for (;;) {
        const current = await row().catch(() => undefined);
        if (current?.status === 'COMPLETED') break;
        assert.ok(Date.now() < until, 'completed in time');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await worker.stop();
    }
    await back;
    const done = await row();
    assert.equal(
      parseReceipt(done?.receipt ?? null)?.['Acme-EN_GB']?.reviews,
      300,
      'each review counted once',
    );
    const left = await rt.deps.store.db
      .selectFrom('reviews')
      .select('id')
      .where('id', 'like', 'proxied-%')
      .execute();
    assert.equal(left.length, 0);
    const logged = rt.logs.lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    assert.ok(batches > 3, 'the outage came in the middle of the erasure');
    assert.equal(logged.filter((m) => m === 'database unavailable: outage started').length, 1);
    assert.ok(!logged.includes('privacy worker iteration failed'));
  });
});
