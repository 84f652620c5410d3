import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type PrivacyTenant, seedPrivacyTenant } from '../helpers/privacy-fixtures.js';
import {
  createTestRuntime,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
  uniqueSchema,
} from '../helpers/test-runtime.js';
import { type Child, startServe, stop } from './child-processes.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-pending-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'shared.db')}`;
/** Both servers and this test use one database: the same SQLite file, or the same PostgreSQL schema. */
const sharedEnv = { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema ?? '' };

describe(`the pending rule across two server processes on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let tenant: PrivacyTenant;
  const servers: Child[] = [];

  before(async () => {
    rt = await createTestRuntime({}, { databaseUrl, ...(schema ? { schema } : {}) });
    tenant = await seedPrivacyTenant(rt.deps);
  });
  after(async () => {
    for (const s of servers) await stop(s);
    // Closing the test runtime also drops the shared PostgreSQL schema.
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('accepts exactly one of 50 simultaneous requests for one person, then the worker completes it', async () => {
    // No worker: the accepted request must stay pending while the others arrive.
    const a = await startServe({ ...sharedEnv, WORKER_ENABLED: 'false' });
    const b = await startServe({ ...sharedEnv, WORKER_ENABLED: 'false' });
    servers.push(a, b);
    const ports = [a.port, b.port];

    const emails = ['alice@example.com', 'ALICE@example.com', ' Alice@Example.COM '];
    const responses = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const type = i % 3 === 0 ? 'accessRequests' : 'forgetRequests';
        const res = await fetch(
          `http://127.0.0.1:${ports[i % 2]}/privacy/v1/${type}?passkey=${tenant.privacyPasskey}`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              emailAddress: emails[i % 3],
              ...(i % 4 === 0 ? { authorId: `alias-${i}` } : {}),
              ...(i % 5 === 0 ? { clientNames: ['Acme-DE_DE'] } : {}),
            }),
          },
        );
        return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
      }),
    );
    const statuses = responses.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 409).length, 49, statuses.join(','));
    for (const r of responses.filter((x) => x.status === 409)) {
      assert.equal(r.type, 'application/problem+json; charset=utf-8');
      assert.equal(JSON.parse(r.body).type, '/problems/pending-request-exists');
    }

    const db = rt.deps.store.db;
    const requests = await db.selectFrom('privacy_requests').selectAll().execute();
    assert.equal(requests.length, 1);
    const accepted = requests[0];
    assert.ok(accepted);
    assert.equal(accepted.status, 'PENDING');
    const keys = await db.selectFrom('privacy_pending_keys').selectAll().execute();
    assert.ok(keys.length >= 1 && keys.every((k) => k.request_id === accepted.id));

    // A server with its in-process worker picks the pending request up and completes it.
    await stop(a);
    await stop(b);
    const withWorker = await startServe({ ...sharedEnv, WORKER_POLL_INTERVAL_MS: '50' });
    servers.push(withWorker);
    const path = accepted.type === 'forget' ? 'forgetRequests' : 'accessRequests';
    let record: { status: string } = { status: 'PENDING' };
    while (record.status !== 'COMPLETED') {
      await new Promise((r) => setTimeout(r, 50));
      const res = await fetch(
        `http://127.0.0.1:${withWorker.port}/privacy/v1/${path}/${accepted.id}?passkey=${tenant.privacyPasskey}`,
        { headers: { authorization: `Bearer ${tenant.token}` } },
      );
      record = (await res.json()) as { status: string };
    }
    assert.equal((await db.selectFrom('privacy_pending_keys').selectAll().execute()).length, 0);
    assert.equal(await stop(withWorker), 0, withWorker.output());
    assert.match(withWorker.output(), /privacy worker stopped/);
  });
  it('accepts exactly one of 40 simultaneous requests naming different linked identifiers of one person', async () => {
    const a = await startServe({ ...sharedEnv, WORKER_ENABLED: 'false' });
    const b = await startServe({ ...sharedEnv, WORKER_ENABLED: 'false' });
    servers.push(a, b);
    // Chloé's reviews carry her authorId, e-mail and Twitter name together: one end user.
    const each = [
      { authorId: 'chloe-3' },
      { emailAddress: 'CHLOE@example.org' },
      { twitterUsername: '@chloe_x' },
      { authorId: 'chloe-3', clientNames: ['Acme-DE_DE'] },
    ];
    const responses = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const type = i % 2 ? 'accessRequests' : 'forgetRequests';
        const port = i % 2 === Math.floor(i / 2) % 2 ? a.port : b.port;
        const res = await fetch(
          `http://127.0.0.1:${port}/privacy/v1/${type}?passkey=${tenant.privacyPasskey}`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
            body: JSON.stringify(each[i % each.length]),
          },
        );
        return res.status;
      }),
    );
    assert.equal(responses.filter((s) => s === 201).length, 1, responses.join(','));
    assert.equal(responses.filter((s) => s === 409).length, 39, responses.join(','));
    const pending = await rt.deps.store.db
      .selectFrom('privacy_requests')
      .select('id')
      .where('status', '=', 'PENDING')
      .execute();
    assert.equal(pending.length, 1);
  });
});
