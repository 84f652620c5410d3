import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseReceipt } from '../../src/domain/privacy-receipt.js';
import { createPrivacyRequest } from '../../src/services/privacy/create-privacy-request.js';
import {
  importReviewsBy,
  type PrivacyTenant,
  respondTo,
  seedPrivacyTenant,
} from '../helpers/privacy-fixtures.js';
import {
  createTestRuntime,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
  uniqueSchema,
} from '../helpers/test-runtime.js';
import { type Child, spawnRpa, spawnScript, stop, waitForOutput } from './child-processes.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-crash-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'crash.db')}`;
const workerEnv = {
  DATABASE_URL: databaseUrl,
  DATABASE_SCHEMA: schema ?? '',
  WORKER_CONCURRENCY: '1',
  WORKER_LEASE_MS: '500',
  WORKER_POLL_INTERVAL_MS: '50',
};

describe(`privacy worker killed with SIGKILL on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let tenant: PrivacyTenant;
  const children: Child[] = [];

  before(async () => {
    rt = await createTestRuntime({}, { databaseUrl, ...(schema ? { schema } : {}) });
    tenant = await seedPrivacyTenant(rt.deps);
    const other = await importReviewsBy(
      rt.deps,
      { name: 'Ivy Bystander', emailAddress: 'ivy@example.com' },
      { clientName: 'Acme-EN_GB', count: 10, prefix: 'ivy' },
    );
    await respondTo(rt.deps, tenant.applicationId, other.slice(0, 5));
  });
  after(async () => {
    for (const c of children) {
      if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
      await c.exited;
    }
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Seeds a subject in both clients and files a forget request for her; returns what she has. */
  async function subjectWithRequest(name: string, email: string, perClient: number) {
    const deps = rt.deps;
    const gb = await importReviewsBy(
      deps,
      { name, emailAddress: email },
      { clientName: 'Acme-EN_GB', count: perClient },
    );
    const de = await importReviewsBy(
      deps,
      { name, emailAddress: email },
      { clientName: 'Acme-DE_DE', count: perClient },
    );
    await respondTo(deps, tenant.applicationId, [...gb.slice(0, 7), ...de.slice(0, 3)]);
    const request = await createPrivacyRequest(deps, {
      type: 'forget',
      environment: 'production',
      applicationId: tenant.applicationId,
      identifiers: { emailAddress: email },
    });
    return { request, gb, de };
  }

  async function others() {
    const db = rt.deps.store.db;
    const reviews = await db
      .selectFrom('reviews')
      .select('id')
      .where('author_email', '=', 'ivy@example.com')
      .execute();
    const responses = await db
      .selectFrom('client_responses')
      .select('id')
      .where('review_id', 'like', 'ivy-%')
      .execute();
    return { reviews: reviews.length, responses: responses.length };
  }

  async function requestRow(id: string) {
    return rt.deps.store.db
      .selectFrom('privacy_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  /** Restarts with the real `rpa worker` and waits for the request to complete. */
  async function resumeWithRpaWorker(id: string) {
    const worker = spawnRpa(['worker'], workerEnv);
    children.push(worker);
    await waitForOutput(worker, /privacy worker started/);
    while ((await requestRow(id)).status !== 'COMPLETED') await new Promise((r) => setTimeout(r, 50));
    assert.equal(await stop(worker), 0, worker.output());
    return requestRow(id);
  }

  const expected = (perClient: number) => ({
    'Acme-DE_DE': { reviews: perClient, clientResponses: 3, profileFields: 2 * perClient, accessExports: 0 },
    'Acme-EN_GB': { reviews: perClient, clientResponses: 7, profileFields: 2 * perClient, accessExports: 0 },
  });

  it('resumes after a kill between batches: nothing lost, nothing counted or erased twice', async () => {
    const { request } = await subjectWithRequest('Gina Crashtest', 'gina@example.com', 20);
    const before = await others();

    const paused = spawnScript('test/system/worker-child.ts', ['--pause-after', '3'], {
      ...workerEnv,
      WORKER_BATCH_SIZE: '5',
    });
    children.push(paused);
    await waitForOutput(paused, /paused/);
    paused.process.kill('SIGKILL');
    assert.equal(await paused.exited, null);

    const mid = await requestRow(request.id);
    assert.equal(mid.status, 'PENDING');
    const partial = parseReceipt(mid.receipt);
    assert.ok(partial);
    const erased = Object.values(partial).reduce((n, c) => n + c.reviews, 0);
    assert.equal(erased, 15, JSON.stringify(partial));

    const done = await resumeWithRpaWorker(request.id);
    assert.deepEqual(parseReceipt(done.receipt), expected(20));
    assert.ok(done.completed_at !== null);
    const left = await rt.deps.store.db
      .selectFrom('reviews')
      .select('id')
      .where('author_email', '=', 'gina@example.com')
      .execute();
    assert.equal(left.length, 0);
    assert.deepEqual(await others(), before);
  });

  it('resumes after a kill at an arbitrary point, mid-transaction included', async () => {
    const { request } = await subjectWithRequest('Hugo Crashtest', 'hugo@example.com', 30);
    const before = await others();

    const running = spawnScript('test/system/worker-child.ts', [], { ...workerEnv, WORKER_BATCH_SIZE: '1' });
    children.push(running);
    // Killed while it is busy erasing, wherever it happens to be.
    await waitForOutput(running, /batch 2 of/);
    running.process.kill('SIGKILL');
    await running.exited;
    assert.equal((await requestRow(request.id)).status, 'PENDING');

    const done = await resumeWithRpaWorker(request.id);
    assert.deepEqual(parseReceipt(done.receipt), expected(30));
    const left = await rt.deps.store.db
      .selectFrom('reviews')
      .select('id')
      .where('author_email', '=', 'hugo@example.com')
      .execute();
    assert.equal(left.length, 0);
    assert.deepEqual(await others(), before);
  });
});
