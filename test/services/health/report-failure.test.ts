import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServiceDeps } from '../../../src/services/deps.js';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import { startPrivacyWorker } from '../../../src/worker/privacy-worker.js';
import { eventually } from '../../helpers/eventually.js';
import { importReviewsBy, type PrivacyTenant, seedPrivacyTenant } from '../../helpers/privacy-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

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
