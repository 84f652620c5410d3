import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openAnswer } from '../../../src/domain/idempotency-key.js';
import { buildServer } from '../../../src/http/build-server.js';
import {
  drainPrivacyQueue,
  type PrivacyClient,
  type PrivacyTenant,
  privacyClient,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import {
  createTestApp,
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestApp,
  type TestRuntime,
  uniqueSchema,
} from '../../helpers/test-runtime.js';

const EMAIL = 'dora.paged@example.com';
const FORMS = [EMAIL, encodeURIComponent(EMAIL), 'dora.paged%40example.com', 'dora.paged'];

/** Query parameters of a link, as a client following it would send them (plus its passkey). */
function queryOf(link: string): Record<string, string> {
  return Object.fromEntries(new URL(link).searchParams);
}

describe(`Privacy API list links never carry an identifier (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let tenant: PrivacyTenant;
  let c: PrivacyClient;
  const ids: string[] = [];

  before(async () => {
    let now = Date.parse('2026-05-01T08:00:00.000Z');
    t = await createTestApp({}, { clock: () => now });
    tenant = await seedPrivacyTenant(t.runtime.deps);
    c = privacyClient(t.app, tenant);
    for (const [body, clientName] of [
      [{ emailAddress: EMAIL }, 'Acme-EN_GB'],
      [{ authorId: 'someone-else' }, 'Acme-EN_GB'],
      [{ emailAddress: EMAIL }, 'Acme-DE_DE'],
    ] as const) {
      now += 1000;
      const res = await c.post('forget', { ...body, clientNames: [clientName] });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().id);
    }
  });
  after(() => t.close());

  function assertNoIdentifier(text: string): void {
    for (const form of FORMS) assert.ok(!text.includes(form), `${text} carries ${form}`);
  }

  it('pages a filter by e-mail address with links that hold only a cursor', async () => {
    const first = await c.get('/forgetRequests', { emailAddress: EMAIL, limit: '1', status: 'PENDING' });
    assert.equal(first.statusCode, 200, first.body);
    const page1 = first.json();
    assert.deepEqual(
      page1.requests.map((r: { id: string }) => r.id),
      [ids[2]],
    );
    assertNoIdentifier(JSON.stringify(page1.links));
    assertNoIdentifier(page1.nextCursor);
    assert.equal(queryOf(page1.links.next).status, 'PENDING');

    // Following `next` without naming the address again stays within the filter.
    const second = await c.get('/forgetRequests', queryOf(page1.links.next));
    assert.equal(second.statusCode, 200, second.body);
    const page2 = second.json();
    assert.deepEqual(
      page2.requests.map((r: { id: string }) => r.id),
      [ids[0]],
    );
    assert.equal(page2.nextCursor, null);
    assert.equal(page2.links.next, undefined);
    assertNoIdentifier(JSON.stringify(page2.links));

    // `self` gives the same page again.
    const again = await c.get('/forgetRequests', queryOf(page1.links.self));
    assert.deepEqual(again.json().requests, page1.requests);
  });

  it('accepts the filter repeated beside its cursor, and refuses a cursor of another filter', async () => {
    const page1 = (await c.get('/forgetRequests', { emailAddress: EMAIL, limit: '1' })).json();
    const same = await c.get('/forgetRequests', {
      emailAddress: 'Dora.Paged@Example.com',
      cursor: page1.nextCursor,
    });
    assert.equal(same.statusCode, 200, same.body);
    assert.deepEqual(
      same.json().requests.map((r: { id: string }) => r.id),
      [ids[0]],
    );
    const other = await c.get('/forgetRequests', { authorId: 'someone-else', cursor: page1.nextCursor });
    assert.equal(other.statusCode, 400, other.body);
    assert.equal(other.json().errors[0].field, 'cursor');
    assertNoIdentifier(other.body);
  });

  it('keeps filters that carry no personal data in the links as they are', async () => {
    const res = (await c.get('/forgetRequests', { clientName: 'Acme-EN_GB', limit: '1' })).json();
    assert.equal(queryOf(res.links.next).clientName, 'Acme-EN_GB');
    assert.equal(queryOf(res.links.self).clientName, 'Acme-EN_GB');
    assert.equal(queryOf(res.links.self).cursor, undefined);
    // The id filter takes request ids only, so no other text can be echoed through it.
    const byText = await c.get('/forgetRequests', { id: EMAIL });
    assert.equal(byText.statusCode, 400, byText.body);
    assert.equal(byText.json().errors[0].field, 'id');
    const byId = (await c.get('/forgetRequests', { id: ids[0] as string })).json();
    assert.deepEqual(
      byId.requests.map((r: { id: string }) => r.id),
      [ids[0]],
    );
  });
});

describe(`Privacy API creates are safe to retry with an Idempotency-Key (${TEST_DIALECT})`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-privacy-idem-'));
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
  const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'idem.db')}`;
  const instances: { runtime: TestRuntime; app: FastifyInstance }[] = [];
  let tenant: PrivacyTenant;
  let a: PrivacyClient;
  let b: PrivacyClient;

  before(async () => {
    // Two instances on one database, as behind a load balancer.
    for (let i = 0; i < 2; i++) {
      const runtime = await createTestRuntime(
        {},
        { databaseUrl, ...(schema ? { schema, keepSchema: true } : {}) },
      );
      instances.push({ runtime, app: await buildServer(runtime.http) });
    }
    const [first, second] = instances as [(typeof instances)[0], (typeof instances)[0]];
    tenant = await seedPrivacyTenant(first.runtime.deps);
    a = privacyClient(first.app, tenant);
    b = privacyClient(second.app, tenant);
  });
  after(async () => {
    for (const { app, runtime } of instances) {
      await app.close();
      await runtime.close();
    }
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  const requestsFor = async (email: string) => {
    const res = await a.get('/forgetRequests', { emailAddress: email });
    return (res.json() as { requests: { id: string }[] }).requests.length;
  };

  it('answers a retry once the first is complete with the first request, as it is now', async () => {
    const body = { emailAddress: 'retry.one@example.com' };
    const first = await a.post('forget', body, { 'idempotency-key': 'retry-1' });
    assert.equal(first.statusCode, 201, first.body);
    await drainPrivacyQueue(instances[0]!.runtime.deps);
    const again = await b.post('forget', body, { 'idempotency-key': 'retry-1' });
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.headers.location, first.headers.location);
    assert.equal(again.json().id, first.json().id);
    assert.equal(again.json().status, 'COMPLETED');
    // The same request sent to the path with a trailing slash (the router takes both).
    const slash = await instances[1]!.app.inject({
      method: 'POST',
      url: '/privacy/v1/forgetRequests/',
      query: { passkey: tenant.privacyPasskey },
      headers: {
        host: 'localhost',
        authorization: `Bearer ${tenant.token}`,
        'content-type': 'application/json',
        'idempotency-key': 'retry-1',
      },
      payload: JSON.stringify(body),
    });
    assert.equal(slash.statusCode, 201, slash.body);
    assert.equal(slash.json().id, first.json().id);
    assert.equal(await requestsFor(body.emailAddress), 1);
  });

  it('answers retries racing the first, on two instances, with one request', async () => {
    const body = { emailAddress: 'retry.two@example.com', clientNames: ['Acme-EN_GB'] };
    const answers = await Promise.all(
      [a, b, a, b, a].map((c) => c.post('access', body, { 'idempotency-key': 'retry-2' })),
    );
    for (const res of answers) assert.equal(res.statusCode, 201, res.body);
    assert.equal(new Set(answers.map((res) => res.json().id)).size, 1);
    const listed = await a.get('/accessRequests', { emailAddress: body.emailAddress });
    assert.equal(listed.json().requests.length, 1);
  });

  it('refuses the key with another body (422) and a malformed key (400), filing nothing', async () => {
    await a.post('forget', { emailAddress: 'retry.three@example.com' }, { 'idempotency-key': 'retry-3' });
    const other = await a.post(
      'forget',
      { emailAddress: 'someone.else@example.com' },
      { 'idempotency-key': 'retry-3' },
    );
    assert.equal(other.statusCode, 422, other.body);
    assert.equal(other.json().code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(await requestsFor('someone.else@example.com'), 0);
    const malformed = await a.post(
      'forget',
      { emailAddress: 'x@example.com' },
      { 'idempotency-key': 'two words' },
    );
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json().code, 'INVALID_HEADER');
  });

  it('keeps no identifier and no key in clear', async () => {
    const rows = await instances[0]!.runtime.deps.store.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .execute();
    assert.ok(rows.length >= 3);
    const text = JSON.stringify(rows);
    for (const clear of ['retry.one@example.com', 'retry.two', 'retry-1', 'retry-2', 'retry-3'])
      assert.ok(!text.includes(clear), clear);
    // What is kept, opened with the key, is the request's id alone: the answer is read from the
    // request record (with its identifiers masked), never from the key's row.
    const scope = `privacy:production:${tenant.applicationId}`;
    const kept = rows
      .filter((row) => row.scope === scope)
      .map((row) => {
        for (const key of ['retry-1', 'retry-2', 'retry-3']) {
          try {
            return openAnswer({ idempotencyKey: key, scope, callerSecret: '' }, row.sealed_answer);
          } catch {}
        }
        return undefined;
      });
    assert.equal(kept.length, 3);
    for (const answer of kept) assert.deepEqual(Object.keys(answer as object), ['id']);
  });
});
