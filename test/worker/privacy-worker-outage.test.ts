import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseReceipt } from '../../src/domain/privacy-receipt.js';
import { createPrivacyRequest } from '../../src/services/privacy/create-privacy-request.js';
import { startPrivacyWorker } from '../../src/worker/privacy-worker.js';
import { importReviewsBy, type PrivacyTenant, seedPrivacyTenant } from '../helpers/privacy-fixtures.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import {
  createTestRuntime,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
} from '../helpers/test-runtime.js';

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
