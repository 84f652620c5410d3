import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { purgeExpiredTokenState } from '../../../src/services/auth/purge-expired-token-state.js';
import { purgePrivacyData } from '../../../src/services/privacy/purge-privacy-data.js';
import { startPrivacyWorker } from '../../../src/worker/privacy-worker.js';
import {
  drainPrivacyQueue,
  issueTestToken,
  type PrivacyClient,
  type PrivacyTenant,
  privacyClient,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestApp, TEST_DIALECT, type TestApp, type TestRuntime } from '../../helpers/test-runtime.js';

const DAY = 86_400_000;

describe(`retention and housekeeping on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  let rt: TestRuntime;
  let app: FastifyInstance;
  let tenant: PrivacyTenant;
  /** A client with a token issued now: the tests move the clock by years. */
  const c = {
    async post(...args: Parameters<PrivacyClient['post']>) {
      return (await fresh()).post(...args);
    },
    async get(...args: Parameters<PrivacyClient['get']>) {
      return (await fresh()).get(...args);
    },
  };
  const fresh = async () =>
    privacyClient(app, { ...tenant, token: await issueTestToken(rt.deps, tenant.applicationId) });
  const start = Date.UTC(2026, 0, 5, 8, 0, 0);
  let now = start;

  before(async () => {
    t = await createTestApp({}, { clock: () => now });
    ({ runtime: rt, app } = t);
    tenant = await seedPrivacyTenant(rt.deps);
  });
  after(() => t.close());

  const listed = async () =>
    ((await c.get('/accessRequests')).json().requests as { id: string }[]).map((r) => r.id);
  const file = async (authorId: string) => {
    const r = await c.post('access', { authorId });
    assert.equal(r.statusCode, 201, r.body);
    return r.json().id as string;
  };
  const exists = async (id: string) =>
    (await rt.deps.store.db.selectFrom('privacy_requests').select('id').where('id', '=', id).execute())
      .length === 1;

  it('counts the listing period and the retention period from completion', async () => {
    now = start;
    const late = await file('late-completion');
    // Completed 20 days after it was filed (the worker was down, say).
    now = start + 20 * DAY;
    await drainPrivacyQueue(rt.deps);

    now = start + 45 * DAY; // 45 days after filing, 25 after completion: still listed
    assert.ok((await listed()).includes(late));
    now = start + 51 * DAY; // 31 days after completion: no longer listed, still readable by id
    assert.ok(!(await listed()).includes(late));
    assert.equal((await c.get(`/accessRequests/${late}`)).statusCode, 200);

    now = start + 100 * DAY; // 100 days after filing but only 80 after completion: kept
    await purgePrivacyData(rt.deps);
    assert.ok(await exists(late));
    now = start + 111 * DAY; // 91 days after completion: gone, with its export and client rows
    await purgePrivacyData(rt.deps);
    assert.ok(!(await exists(late)));
    const db = rt.deps.store.db;
    for (const table of [
      'privacy_request_clients',
      'privacy_request_identifiers',
      'privacy_exports',
    ] as const) {
      const left = await db.selectFrom(table).select('request_id').where('request_id', '=', late).execute();
      assert.equal(left.length, 0, table);
    }
  });

  it('lists and keeps a pending request however old it is', async () => {
    now = start + 200 * DAY;
    const pending = await file('never-worked-on');
    now += 400 * DAY;
    assert.ok((await listed()).includes(pending));
    await purgePrivacyData(rt.deps);
    assert.ok(await exists(pending));
    assert.equal((await c.get(`/accessRequests/${pending}`)).json().status, 'PENDING');
    await drainPrivacyQueue(rt.deps);
  });

  it('purges in bounded batches: one pass deletes at most batchSize x maxBatches', async () => {
    now = start + 1000 * DAY;
    await purgePrivacyData(rt.deps); // what the earlier tests left
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await file(`bounded-${i}`));
    await drainPrivacyQueue(rt.deps);
    now += 91 * DAY;
    const first = await purgePrivacyData(rt.deps, { batchSize: 2, maxBatches: 2 });
    assert.equal(first.requests, 4);
    assert.equal((await Promise.all(ids.map(exists))).filter(Boolean).length, 3);
    const second = await purgePrivacyData(rt.deps, { batchSize: 2, maxBatches: 2 });
    assert.equal(second.requests, 3);
    const third = await purgePrivacyData(rt.deps, { batchSize: 2, maxBatches: 2 });
    assert.deepEqual(third, { exports: 0, requests: 0 });
  });

  it('deletes the deny entries of revoked tokens once they have expired, in bounded batches', async () => {
    const db = rt.deps.store.db;
    now = start + 2000 * DAY;
    await db
      .insertInto('token_denials')
      .values([
        ...Array.from({ length: 5 }, (_, i) => ({
          token_id: `expired-${i}`,
          application_id: tenant.applicationId,
          expires_at: now - 1000 - i,
        })),
        { token_id: 'still-live', application_id: tenant.applicationId, expires_at: now + 60_000 },
      ])
      .execute();
    const first = await purgeExpiredTokenState(rt.deps, { batchSize: 2, maxBatches: 2 });
    assert.equal(first.tokenDenials, 4);
    const second = await purgeExpiredTokenState(rt.deps, { batchSize: 2, maxBatches: 2 });
    assert.equal(second.tokenDenials, 1);
    const left = await db.selectFrom('token_denials').select('token_id').execute();
    assert.deepEqual(
      left.map((r) => r.token_id),
      ['still-live'],
    );
  });

  it("runs all of it from the worker's housekeeping", async () => {
    const db = rt.deps.store.db;
    now = start + 3000 * DAY;
    const id = await file('worker-housekeeping');
    await drainPrivacyQueue(rt.deps);
    await db
      .insertInto('token_denials')
      .values({ token_id: 'expired-for-worker', application_id: tenant.applicationId, expires_at: now - 1 })
      .execute();
    now += 91 * DAY;
    const worker = startPrivacyWorker(rt.deps, { owner: 'housekeeping-test' });
    try {
      for (let i = 0; i < 100 && (await exists(id)); i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await worker.stop();
    }
    assert.ok(!(await exists(id)), 'the completed request was purged');
    const denial = await db
      .selectFrom('token_denials')
      .select('token_id')
      .where('token_id', '=', 'expired-for-worker')
      .execute();
    assert.equal(denial.length, 0, 'the expired deny entry was deleted');
  });
});
