import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseReceipt } from '../../src/domain/privacy-receipt.js';
import type { ServiceDeps } from '../../src/services/deps.js';
import { claimPrivacyRequest } from '../../src/services/privacy/claim-privacy-request.js';
import { createPrivacyRequest } from '../../src/services/privacy/create-privacy-request.js';
import { processPrivacyRequest } from '../../src/services/privacy/process-privacy-request.js';
import { findCompactionOwed, markCompactionOwed } from '../../src/store/repositories/privacy-compactions.js';
import { startPrivacyWorker } from '../../src/worker/privacy-worker.js';
import { eventually } from '../helpers/eventually.js';
import {
  compactionRows,
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

const at = (iso: string) => Date.parse(iso);

describe(`the worker's compaction on ${TEST_DIALECT}`, () => {
  let now = at('2026-06-01T10:00:00Z');
  const clock = () => now;

  /** One housekeeping round: stop() waits for the lane that started it. */
  async function housekeeping(deps: ServiceDeps) {
    await startPrivacyWorker(deps, { owner: 'compaction-test' }).stop();
  }

  async function withWorkerRuntime(
    env: Record<string, string>,
    fn: (deps: ServiceDeps, rt: TestRuntime) => Promise<void>,
  ) {
    const rt = await createTestRuntime({ WORKER_CONCURRENCY: '1', ...env }, { clock });
    try {
      await fn(rt.deps, rt);
    } finally {
      await rt.close();
    }
  }

  it('off: never compacts, even when owed and inside the window', async () => {
    await withWorkerRuntime({}, async (deps) => {
      await markCompactionOwed(deps.store.db, now);
      now = at('2026-06-01T03:00:00Z');
      await housekeeping(deps);
      assert.equal((await compactionRows(deps)).length, 0);
      assert.notEqual(await findCompactionOwed(deps.store.db), null);
    });
  });

  it('after-erasure: compacts inside the window when owed', async () => {
    await withWorkerRuntime({ PRIVACY_COMPACT: 'after-erasure' }, async (deps) => {
      const db = deps.store.db;
      now = at('2026-06-01T10:00:00Z');
      await markCompactionOwed(db, now);
      await housekeeping(deps);
      assert.equal((await compactionRows(deps)).length, 0, 'outside the window');

      now = at('2026-06-02T02:30:00Z');
      await housekeeping(deps);
      const rows = await compactionRows(deps);
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.trigger, 'after-erasure');
      assert.equal(rows[0]?.started_at, now);
      assert.equal(rows[0]?.error, null);
      assert.equal(await findCompactionOwed(db), null);

      now += 120_000;
      await housekeeping(deps);
      assert.equal((await compactionRows(deps)).length, 1, 'nothing owed');

      await markCompactionOwed(db, now);
      now += 120_000;
      await housekeeping(deps);
      assert.equal((await compactionRows(deps)).length, 2, 'another erasure, same window');
    });
  });

  it('daily: at most once per window, and only when owed', async () => {
    await withWorkerRuntime(
      { PRIVACY_COMPACT: 'daily', PRIVACY_COMPACT_WINDOW: '23:00-01:00' },
      async (deps) => {
        const db = deps.store.db;
        now = at('2026-06-01T23:30:00Z');
        await housekeeping(deps);
        assert.equal((await compactionRows(deps)).length, 0, 'nothing owed');

        await markCompactionOwed(db, now);
        await housekeeping(deps);
        assert.equal((await compactionRows(deps)).length, 1);

        // Owed again, still in the same window (now past midnight): it waits for the next one.
        await markCompactionOwed(db, now);
        now = at('2026-06-02T00:30:00Z');
        await housekeeping(deps);
        assert.equal((await compactionRows(deps)).length, 1);
        assert.notEqual(await findCompactionOwed(db), null);

        now = at('2026-06-02T23:05:00Z');
        await housekeeping(deps);
        const rows = await compactionRows(deps);
        assert.deepEqual(
          rows.map((r) => [r.trigger, r.started_at]),
          [
            ['daily', at('2026-06-01T23:30:00Z')],
            ['daily', at('2026-06-02T23:05:00Z')],
          ],
        );
        assert.equal(await findCompactionOwed(db), null);
      },
    );
  });

  for (const mode of ['after-erasure', 'daily'] as const) {
    it(`logs a failed compaction and tries again in the same window (${mode})`, async () => {
      await withWorkerRuntime({ PRIVACY_COMPACT: mode }, async (deps, rt) => {
        const failing: ServiceDeps = {
          ...deps,
          store: {
            ...deps.store,
            async compactTables() {
              throw Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' });
            },
          },
        };
        now = at('2026-06-03T03:00:00Z');
        await markCompactionOwed(deps.store.db, now);
        await housekeeping(failing);
        const rows = await compactionRows(deps);
        assert.equal(rows.length, 1);
        assert.equal(rows[0]?.error, 'canceling statement due to lock timeout');
        assert.equal(await findCompactionOwed(deps.store.db), now, 'owed again');
        const failed = rt.logs.lines
          .map((l) => JSON.parse(l))
          .find((l) => l.msg === 'privacy table compaction failed');
        assert.equal(failed?.err.message, 'canceling statement due to lock timeout');
        assert.equal(failed?.err.code, '55P03');
        // The next housekeeping in the window tries again, with the real store.
        now += 120_000;
        await housekeeping(deps);
        const retried = await compactionRows(deps);
        assert.equal(retried.length, 2);
        assert.equal(retried[1]?.error, null);
      });
    });
  }
});

/** Deps whose transactions fail with `failure()` (after their work, so it rolls back) while `down()`. */
function faulty(deps: ServiceDeps, down: (attempt: number) => boolean, failure: () => Error): ServiceDeps {
  let attempts = 0;
  // From a failed transaction to the next that commits, the database is down for a ping too, as
  // the probe that ends an outage would find it.
  let failing = false;
  const groupCommit: ServiceDeps['store']['groupCommit'] = (work, keep) =>
    deps.store.groupCommit(async (trx) => {
      const result = await work(trx);
      failing = down(++attempts);
      if (failing) throw failure();
      return result;
    }, keep);
  const ping = () => (failing ? Promise.reject(failure()) : deps.store.ping());
  return { ...deps, store: { ...deps.store, groupCommit, ping } };
}

const connectionLost = () => new Error('Connection terminated unexpectedly');

/** Polls until `check` holds, for at most `ms`. */
const until = (check: () => Promise<boolean>, ms = 20_000) =>
  eventually(
    async () => {
      if (!(await check())) throw new Error('condition not reached in time');
    },
    ms,
    20,
  );

describe(`privacy worker through database faults on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let tenant: PrivacyTenant;

  before(async () => {
    rt = await createTestRuntime({
      WORKER_BATCH_SIZE: '10',
      WORKER_CONCURRENCY: '1',
      WORKER_POLL_INTERVAL_MS: '50',
      WORKER_LEASE_MS: '60000',
    });
    tenant = await seedPrivacyTenant(rt.deps);
  });
  after(() => rt.close());

  const forget = (authorId: string) =>
    createPrivacyRequest(rt.deps, {
      type: 'forget',
      environment: 'production',
      applicationId: tenant.applicationId,
      identifiers: { authorId },
    });
  const status = async (id: string) =>
    (
      await rt.deps.store.db
        .selectFrom('privacy_requests')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;
  const reviewsLeft = async (prefix: string) =>
    (await rt.deps.store.db.selectFrom('reviews').select('id').where('id', 'like', `${prefix}-%`).execute())
      .length;
  const messages = (from: number) =>
    rt.logs.lines.slice(from).map((line) => JSON.parse(line) as { msg: string; privacyRequestId?: string });

  it('rides out a database outage mid-erasure, logs it once, and goes on without a restart', {
    timeout: 60_000,
  }, async () => {
    await importReviewsBy(
      rt.deps,
      { name: 'Half Erased', authorId: 'half-1' },
      { clientName: 'Acme-EN_GB', count: 120, prefix: 'half' },
    );
    const first = await forget('half-1');
    const logsFrom = rt.logs.lines.length;
    // Claim and the first batches commit, then six transactions in a row fail (batches and
    // claims alike), then the database is back.
    const deps = faulty(rt.deps, (attempt) => attempt >= 4 && attempt < 10, connectionLost);
    const worker = startPrivacyWorker(deps, { owner: 'faulty-worker' });
    try {
      await until(async () => (await status(first.id)) === 'COMPLETED');
      assert.equal(await reviewsLeft('half'), 0);
      // The lane kept running: a request accepted after the outage is carried out too.
      await importReviewsBy(
        rt.deps,
        { name: 'After Outage', authorId: 'after-1' },
        { clientName: 'Acme-DE_DE', count: 3, prefix: 'afteroutage' },
      );
      const second = await forget('after-1');
      await until(async () => (await status(second.id)) === 'COMPLETED');
    } finally {
      await worker.stop();
    }
    const logged = messages(logsFrom).map((l) => l.msg);
    assert.equal(logged.filter((m) => m === 'database unavailable: outage started').length, 1, 'logged once');
    assert.equal(logged.filter((m) => m === 'database available again: outage ended').length, 1);
    assert.ok(!logged.includes('privacy worker iteration failed'), 'no error line per failed pass');
    assert.ok(!logged.includes('privacy request left'), 'nothing handed over or lost');
  });

  it('logs a real error, not an outage, for a failure that is not one, and still finishes', {
    timeout: 60_000,
  }, async () => {
    await importReviewsBy(
      rt.deps,
      { name: 'Buggy', authorId: 'bug-1' },
      { clientName: 'Acme-EN_GB', count: 30, prefix: 'bug' },
    );
    const request = await forget('bug-1');
    const logsFrom = rt.logs.lines.length;
    const deps = faulty(
      rt.deps,
      (attempt) => attempt === 2,
      () => new Error('a bug in a batch'),
    );
    const worker = startPrivacyWorker(deps, { owner: 'buggy-worker' });
    try {
      await until(async () => (await status(request.id)) === 'COMPLETED');
    } finally {
      await worker.stop();
    }
    const logged = messages(logsFrom).map((l) => l.msg);
    assert.equal(logged.filter((m) => m === 'privacy worker iteration failed').length, 1);
    assert.ok(!logged.includes('database unavailable: outage started'));
    assert.equal(await reviewsLeft('bug'), 0);
  });

  it('stops cleanly while the database is still down', { timeout: 60_000 }, async () => {
    await importReviewsBy(
      rt.deps,
      { name: 'Stopped', authorId: 'stop-1' },
      { clientName: 'Acme-EN_GB', count: 40, prefix: 'stopped' },
    );
    const request = await forget('stop-1');
    const deps = faulty(rt.deps, (attempt) => attempt >= 3, connectionLost);
    const worker = startPrivacyWorker(deps, { owner: 'stopping-worker' });
    await until(async () => rt.deps.outages.isDown('database'));
    await worker.stop();
    assert.equal(await status(request.id), 'PENDING', 'not completed by a worker that could not finish it');
    assert.ok((await reviewsLeft('stopped')) > 0);
    // The database is back: another worker finishes what the first left.
    const next = startPrivacyWorker(rt.deps, { owner: 'next-worker' });
    try {
      await until(async () => (await status(request.id)) === 'COMPLETED', 45_000);
    } finally {
      await next.stop();
    }
    assert.equal(await reviewsLeft('stopped'), 0);
  });

  it('keeps a request with the lane that waited out an outage longer than its lease', {
    timeout: 60_000,
  }, async () => {
    const lanes = await createTestRuntime(
      {
        WORKER_BATCH_SIZE: '10',
        WORKER_CONCURRENCY: '2',
        WORKER_POLL_INTERVAL_MS: '50',
        WORKER_LEASE_MS: '100',
      },
      rt.schema ? { databaseUrl: rt.config.databaseUrl, schema: rt.schema, keepSchema: true } : {},
    );
    // SQLite in memory is one database per runtime: seed this one's own tenant there.
    const own = rt.schema ? tenant : await seedPrivacyTenant(lanes.deps);
    try {
      await importReviewsBy(
        lanes.deps,
        { name: 'Long Outage', authorId: 'long-1' },
        { clientName: 'Acme-EN_GB', count: 1500, prefix: 'longoutage' },
      );
      const request = await createPrivacyRequest(lanes.deps, {
        type: 'forget',
        environment: 'production',
        applicationId: own.applicationId,
        identifiers: { authorId: 'long-1' },
      });
      // After two batches, the erasing lane's batches fail for 0.6 s (six leases) while the other
      // lane's claims go through and find the lease run out.
      let downUntil = 0;
      let batches = 0;
      const groupCommit: ServiceDeps['store']['groupCommit'] = (work, keep) => {
        // A batch's transaction, told from a claim by who asked for it.
        const batch = new Error().stack?.includes('retryThroughOutage') ?? false;
        return lanes.deps.store.groupCommit(async (trx) => {
          const result = await work(trx);
          if (batch && ++batches === 3) downUntil = Date.now() + 600;
          if (batch && Date.now() < downUntil) throw connectionLost();
          return result;
        }, keep);
      };
      const deps: ServiceDeps = { ...lanes.deps, store: { ...lanes.deps.store, groupCommit } };
      const logsFrom = lanes.logs.lines.length;
      const worker = startPrivacyWorker(deps, { owner: 'two-lanes' });
      try {
        const deadline = Date.now() + 45_000;
        for (;;) {
          const row = await lanes.deps.store.db
            .selectFrom('privacy_requests')
            .select('status')
            .where('id', '=', request.id)
            .executeTakeFirstOrThrow();
          if (row.status === 'COMPLETED') break;
          assert.ok(Date.now() < deadline, 'completed in time');
          await new Promise((r) => setTimeout(r, 20));
        }
      } finally {
        await worker.stop();
      }
      const completions = lanes.logs.lines
        .slice(logsFrom)
        .map((l) => JSON.parse(l) as { msg: string; privacyRequestId?: string })
        .filter((l) => l.msg === 'privacy request completed' && l.privacyRequestId === request.id);
      assert.equal(completions.length, 1, 'carried out by one lane');
    } finally {
      await lanes.close();
    }
  });

  it('completes the small requests claimed beside a large erasure first, none lease-lost', {
    timeout: 60_000,
  }, async () => {
    await importReviewsBy(
      rt.deps,
      { name: 'Many Reviews', authorId: 'lane-big' },
      { clientName: 'Acme-EN_GB', count: 600, prefix: 'lanebig' },
    );
    for (let p = 0; p < 3; p++) {
      await importReviewsBy(
        rt.deps,
        { name: `Few ${p}`, authorId: `lane-small-${p}` },
        { clientName: 'Acme-DE_DE', count: 2, prefix: `lanesmall${p}` },
      );
    }
    const big = await forget('lane-big');
    const small = [];
    for (let p = 0; p < 3; p++) small.push(await forget(`lane-small-${p}`));
    const logsFrom = rt.logs.lines.length;
    const worker = startPrivacyWorker(rt.deps, { owner: 'fair-worker' });
    try {
      await until(async () => (await status(big.id)) === 'COMPLETED');
    } finally {
      await worker.stop();
    }
    const completed = messages(logsFrom)
      .filter((l) => l.msg === 'privacy request completed')
      .map((l) => l.privacyRequestId);
    assert.deepEqual(
      completed.slice(0, 3).sort(),
      small.map((r) => r.id).sort(),
      'the small ones are logged first',
    );
    assert.equal(completed[3], big.id);
    assert.ok(!messages(logsFrom).some((l) => l.msg === 'privacy request left'));
  });
});
