import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { claimPrivacyRequest } from '../../../src/services/privacy/claim-privacy-request.js';
import { processPrivacyRequest } from '../../../src/services/privacy/process-privacy-request.js';
import { purgePrivacyData } from '../../../src/services/privacy/purge-privacy-data.js';
import { createClient } from '../../../src/services/tenancy/create-client.js';
import {
  drainPrivacyQueue,
  type PrivacyClient,
  type PrivacyTenant,
  privacyClient,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../../helpers/test-runtime.js';

const DAY = 86_400_000;
const PROBLEM = 'application/problem+json; charset=utf-8';

/** Raw identifier values used below: none may ever appear in a log line. */
const RAW_VALUES = [
  'alice@example.com',
  'ALICE@EXAMPLE.COM',
  'alice-1',
  'bob@example.com',
  '+44 20 7946 0001',
];

describe(`Privacy API requests on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  let tenant: PrivacyTenant;
  let c: PrivacyClient;
  let now = Date.parse('2026-01-31T12:00:00.000Z');

  before(async () => {
    t = await createTestApp({}, { clock: () => now });
    tenant = await seedPrivacyTenant(t.runtime.deps);
    c = privacyClient(t.app, tenant);
    // A client this application is not granted.
    await createClient(t.runtime.deps, { environment: 'production', name: 'Globex-FR' });
  });
  after(async () => {
    const logs = t.runtime.logs.text();
    await t.close();
    for (const value of RAW_VALUES) assert.ok(!logs.includes(value), `a log line contains ${value}`);
  });

  async function expectProblem(
    res: Awaited<ReturnType<PrivacyClient['post']>>,
    status: number,
    code: string,
    field?: string,
  ) {
    assert.equal(res.statusCode, status, res.body);
    assert.equal(res.headers['content-type'], PROBLEM);
    const body = res.json();
    assert.equal(body.status, status);
    assert.equal(body.code, code);
    assert.equal(body.type, `/problems/${code.toLowerCase().replaceAll('_', '-')}`);
    assert.equal(typeof body.title, 'string');
    assert.equal(typeof body.detail, 'string');
    if (field !== undefined) assert.equal(body.errors?.[0]?.field, field, JSON.stringify(body));
    for (const value of RAW_VALUES) assert.ok(!res.body.includes(value), `problem echoes ${value}`);
    return body;
  }

  it('creates a forget request: 201, Location, record with masked identifiers and dueAt', async () => {
    const res = await c.post('forget', {
      authorId: 'alice-1',
      emailAddress: 'ALICE@EXAMPLE.COM',
      phoneNumber: '+44 20 7946 0001',
      clientNames: ['Acme-EN_GB'],
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-store');
    const record = res.json();
    assert.equal(res.headers.location, `http://localhost/privacy/v1/forgetRequests/${record.id}`);
    assert.deepEqual(record, {
      id: record.id,
      type: 'forgetRequest',
      status: 'PENDING',
      submittedAt: '2026-01-31T12:00:00.000Z',
      dueAt: '2026-02-28T12:00:00.000Z',
      completedAt: null,
      clientNames: ['Acme-EN_GB'],
      identifiers: [
        { type: 'authorId', value: 'a***1' },
        { type: 'emailAddress', value: 'a***@e***' },
        { type: 'phoneNumber', value: '***01' },
      ],
      receipt: null,
      links: { self: res.headers.location },
    });
    const got = await c.get(`/forgetRequests/${record.id}`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), record);
    await drainPrivacyQueue(t.runtime.deps);
  });

  it('defaults clientNames to every client the application may use', async () => {
    const res = await c.post('access', { emailAddress: 'bob@example.com' });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().clientNames, ['Acme-DE_DE', 'Acme-EN_GB']);
    assert.equal(res.json().type, 'accessRequest');
    assert.equal(res.json().exportExpiresAt, null);
    await drainPrivacyQueue(t.runtime.deps);
  });

  it('gives each request a UUIDv7 id that begins with its submission time', async () => {
    const ids: string[] = [];
    for (const emailAddress of ['v7-a@example.com', 'v7-b@example.com', 'v7-c@example.com']) {
      now += 1;
      const res = await c.post('forget', { emailAddress });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().id);
    }
    for (const id of ids) {
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(Number.parseInt(ids[2]!.replaceAll('-', '').slice(0, 12), 16), now);
    await drainPrivacyQueue(t.runtime.deps);
  });

  it('reads a body without Content-Type as JSON (seed §4.3)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/privacy/v1/forgetRequests?passkey=${tenant.privacyPasskey}`,
      headers: { host: 'localhost', authorization: `Bearer ${tenant.token}` },
      payload: Buffer.from(JSON.stringify({ twitterUsername: '@Chloe_X' })),
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().identifiers, [{ type: 'twitterUsername', value: 'c***x' }]);
    await drainPrivacyQueue(t.runtime.deps);
  });

  describe('validation', () => {
    it('requires at least one identifier', async () => {
      await expectProblem(await c.post('forget', { clientNames: ['Acme-EN_GB'] }), 400, 'MISSING_PROPERTY');
      await expectProblem(await c.post('access', {}), 400, 'MISSING_PROPERTY');
    });

    it('rejects malformed identifiers without echoing them', async () => {
      await expectProblem(
        await c.post('forget', { emailAddress: 'alice-1' }),
        400,
        'INVALID_PROPERTY_VALUE',
        'emailAddress',
      );
      await expectProblem(
        await c.post('forget', { phoneNumber: 'call alice@example.com' }),
        400,
        'INVALID_PROPERTY_VALUE',
        'phoneNumber',
      );
      await expectProblem(
        await c.post('forget', { authorId: '' }),
        400,
        'INVALID_PROPERTY_VALUE',
        'authorId',
      );
      await expectProblem(
        await c.post('forget', { instagramUsername: 'has space' }),
        400,
        'INVALID_PROPERTY_VALUE',
        'instagramUsername',
      );
      await expectProblem(
        await c.post('forget', { emailAddress: ['a@b.co', 'c@d.co'] }),
        400,
        'INVALID_PROPERTY_VALUE',
        'emailAddress',
      );
    });

    it('rejects unknown properties, naming them', async () => {
      const body = await expectProblem(
        await c.post('forget', { emailAdress: 'alice@example.com' }),
        400,
        'INVALID_PROPERTY_VALUE',
        'emailAdress',
      );
      assert.match(body.detail, /emailAdress/);
    });

    it('rejects client names the application may not use, and an empty list', async () => {
      await expectProblem(
        await c.post('forget', { authorId: 'bob-2', clientNames: ['Globex-FR'] }),
        400,
        'UNKNOWN_CLIENT_NAME',
        'clientNames',
      );
      await expectProblem(
        await c.post('forget', { authorId: 'bob-2', clientNames: ['Acme-EN_GB', 'No-Such-Client'] }),
        400,
        'UNKNOWN_CLIENT_NAME',
        'clientNames',
      );
      await expectProblem(
        await c.post('forget', { authorId: 'bob-2', clientNames: [] }),
        400,
        'INVALID_PROPERTY_VALUE',
        'clientNames',
      );
      await expectProblem(
        await c.post('forget', { authorId: 'bob-2', clientNames: [''] }),
        400,
        'INVALID_PROPERTY_VALUE',
        'clientNames.0',
      );
    });

    it('rejects bodies that are not a JSON object', async () => {
      await expectProblem(await c.post('forget', '{"authorId": '), 400, 'INVALID_JSON');
      await expectProblem(await c.post('forget', ''), 400, 'INVALID_JSON');
      await expectProblem(await c.post('forget', []), 400, 'INVALID_PROPERTY_VALUE');
      await expectProblem(await c.post('forget', 'null'), 400, 'INVALID_PROPERTY_VALUE');
      await expectProblem(await c.post('forget', '{"__proto__": {"x": 1}}'), 400, 'INVALID_JSON');
    });

    it('answers other media types with 415', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/problem+json']) {
        await expectProblem(
          await c.post('forget', '{"authorId":"bob-2"}', { 'content-type': type }),
          415,
          'UNSUPPORTED_MEDIA_TYPE',
        );
      }
    });

    it('authenticates token and passkey first', async () => {
      const noToken = await t.app.inject({
        method: 'POST',
        url: `/privacy/v1/forgetRequests?passkey=${tenant.privacyPasskey}`,
        headers: { host: 'localhost', 'content-type': 'application/json' },
        payload: '{"authorId":"bob-2"}',
      });
      await expectProblem(noToken, 401, 'UNAUTHORIZED');
      assert.match(String(noToken.headers['www-authenticate']), /^Bearer/);
      const badToken = privacyClient(t.app, { ...tenant, token: 'rpa_at_not-a-token' });
      await expectProblem(await badToken.post('forget', { authorId: 'bob-2' }), 401, 'INVALID_TOKEN');
      const badPasskey = privacyClient(t.app, { ...tenant, privacyPasskey: 'rpa_pk_unknown' });
      await expectProblem(await badPasskey.post('forget', { authorId: 'bob-2' }), 403, 'DEVELOPER_INACTIVE');
      const responsePasskey = privacyClient(t.app, { ...tenant, privacyPasskey: tenant.responsePasskey });
      await expectProblem(await responsePasskey.get('/forgetRequests'), 403, 'DEVELOPER_INACTIVE');
      const noPasskey = await t.app.inject({
        method: 'GET',
        url: '/privacy/v1/forgetRequests',
        headers: { host: 'localhost', authorization: `Bearer ${tenant.token}` },
      });
      await expectProblem(noPasskey, 400, 'INVALID_QUERY_PARAMETER', 'passkey');
    });

    it('validates list filters', async () => {
      const bad: [Record<string, string>, string][] = [
        [{ limit: '0' }, 'limit'],
        [{ limit: '1001' }, 'limit'],
        [{ limit: 'ten' }, 'limit'],
        [{ status: 'ABORTED' }, 'status'],
        [{ submittedAfter: 'yesterday' }, 'submittedAfter'],
        [{ completedAfter: '2026-13-01T00:00:00Z' }, 'completedAfter'],
        [{ emailAdress: 'alice@example.com' }, 'emailAdress'],
        [{ emailAddress: 'alice@example.com', authorId: 'alice-1' }, 'emailAddress'],
        [{ emailAddress: 'not-an-email' }, 'emailAddress'],
        [{ cursor: 'garbage' }, 'cursor'],
      ];
      for (const [query, field] of bad) {
        await expectProblem(await c.get('/forgetRequests', query), 400, 'INVALID_QUERY_PARAMETER', field);
      }
    });
  });

  describe('pending rule', () => {
    it('answers 409 while a request for the same end user is pending, across types and identifiers', async () => {
      const first = await c.post('forget', { emailAddress: 'bob@example.com', clientNames: ['Acme-DE_DE'] });
      assert.equal(first.statusCode, 201, first.body);
      // Same email in another case, plus another identifier, in an overlapping client list.
      const again = await c.post('access', { emailAddress: ' Bob@Example.com ', authorId: 'someone-else' });
      const body = await expectProblem(again, 409, 'PENDING_REQUEST_EXISTS');
      assert.equal(body.title, 'A request for this end user is already pending');
      // No overlap in clients, or in identifiers: not the same end user.
      const otherClient = await c.post('access', {
        emailAddress: 'bob@example.com',
        clientNames: ['Acme-EN_GB'],
      });
      assert.equal(otherClient.statusCode, 201, otherClient.body);
      const otherIdentifier = await c.post('forget', { authorId: 'carol-9', clientNames: ['Acme-DE_DE'] });
      assert.equal(otherIdentifier.statusCode, 201, otherIdentifier.body);
      // Bob's authorId is stored with his e-mail on his reviews there: the same end user.
      const linked = await c.post('forget', { authorId: 'bob-2', clientNames: ['Acme-DE_DE'] });
      await expectProblem(linked, 409, 'PENDING_REQUEST_EXISTS');
      await drainPrivacyQueue(t.runtime.deps);
      // Once completed, a new request is accepted.
      const later = await c.post('access', { emailAddress: 'bob@example.com', clientNames: ['Acme-DE_DE'] });
      assert.equal(later.statusCode, 201, later.body);
      await drainPrivacyQueue(t.runtime.deps);
    });

    it('accepts exactly one of 50 concurrent requests for one person', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          c.post(i % 2 ? 'forget' : 'access', { phoneNumber: i % 3 ? '+44 20 7946 0001' : '+442079460001' }),
        ),
      );
      const codes = results.map((r) => r.statusCode);
      assert.equal(codes.filter((s) => s === 201).length, 1, codes.join(','));
      assert.equal(codes.filter((s) => s === 409).length, 49, codes.join(','));
      await drainPrivacyQueue(t.runtime.deps);
    });
  });

  describe('reading', () => {
    it('hides other applications, other types and other environments behind 404', async () => {
      const mine = (await c.post('forget', { youtubeChannelId: 'UC123abc' })).json();
      const other = await seedPrivacyTenant(t.runtime.deps);
      const theirs = privacyClient(t.app, other);
      await expectProblem(await theirs.get(`/forgetRequests/${mine.id}`), 404, 'NOT_FOUND');
      await expectProblem(await c.get(`/accessRequests/${mine.id}`), 404, 'NOT_FOUND');
      await expectProblem(await c.get(`/accessRequests/${mine.id}/export`), 404, 'NOT_FOUND');
      await expectProblem(await c.get('/forgetRequests/no-such-id'), 404, 'NOT_FOUND');
      const staging = await seedPrivacyTenant(t.runtime.deps, 'staging');
      const stg = privacyClient(t.app, staging, 'stg.localhost');
      await expectProblem(await stg.get(`/forgetRequests/${mine.id}`), 404, 'NOT_FOUND');
      assert.equal((await theirs.get('/forgetRequests')).json().requests.length, 0);
      await drainPrivacyQueue(t.runtime.deps);
    });

    it('lists with filters and cursor pagination, newest first, for PRIVACY_LIST_DAYS', async () => {
      const other = await seedPrivacyTenant(t.runtime.deps);
      const oc = privacyClient(t.app, other);
      const start = now;
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        now = start + i * 1000;
        const res = await oc.post('forget', {
          authorId: `person-${i}`,
          ...(i === 3 ? { emailAddress: 'x@example.net' } : {}),
          clientNames: [i % 2 ? 'Acme-EN_GB' : 'Acme-DE_DE'],
        });
        assert.equal(res.statusCode, 201, res.body);
        ids.push(res.json().id);
      }
      // Complete the first three only.
      now = start + 10_000;
      for (let i = 0; i < 3; i++) {
        const claimed = await claimPrivacyRequest(t.runtime.deps, { owner: 'list-test' });
        assert.ok(claimed);
        await processPrivacyRequest(t.runtime.deps, { request: claimed, owner: 'list-test' });
      }

      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await oc.get('/forgetRequests', { limit: '3', ...(cursor ? { cursor } : {}) });
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json();
        seen.push(...page.requests.map((r: { id: string }) => r.id));
        cursor = page.nextCursor ?? undefined;
        if (cursor) assert.match(page.links.next, /[?&]cursor=/);
        assert.ok(!page.links.self.includes('passkey'));
        pages++;
      } while (cursor);
      assert.equal(pages, 3);
      assert.deepEqual(seen, [...ids].reverse());

      const list = async (query: Record<string, string>) =>
        (await oc.get('/forgetRequests', query))
          .json()
          .requests.map((r: { id: string }) => ids.indexOf(r.id));
      assert.deepEqual(await list({ status: 'COMPLETED' }), [2, 1, 0]);
      assert.deepEqual(await list({ status: 'PENDING' }), [6, 5, 4, 3]);
      assert.deepEqual(await list({ clientName: 'Acme-EN_GB' }), [5, 3, 1]);
      assert.deepEqual(await list({ submittedAfter: new Date(start + 4500).toISOString() }), [6, 5]);
      assert.deepEqual(await list({ completedAfter: new Date(start).toISOString() }), [2, 1, 0]);
      assert.deepEqual(await list({ completedAfter: new Date(start + 10_000).toISOString() }), []);
      assert.deepEqual(await list({ emailAddress: 'X@Example.NET' }), [3]);
      assert.deepEqual(await list({ authorId: 'person-5' }), [5]);
      assert.deepEqual(await list({ id: ids[4] as string }), [4]);
      assert.deepEqual(await list({ status: 'PENDING', clientName: 'Acme-DE_DE', limit: '1' }), [6]);

      // Listed for 30 days after completion, readable until purged 90 days after it; pending ones
      // are still owed an answer, so they stay listed and are never purged.
      now = start + 31 * DAY;
      assert.deepEqual(await list({}), [6, 5, 4, 3]);
      assert.equal((await oc.get(`/forgetRequests/${ids[0]}`)).statusCode, 200);
      now = start + 91 * DAY;
      const purged = await purgePrivacyData(t.runtime.deps);
      assert.ok(purged.requests >= 3);
      assert.equal((await oc.get(`/forgetRequests/${ids[0]}`)).statusCode, 404);
      assert.equal((await oc.get(`/forgetRequests/${ids[6]}`)).statusCode, 200, 'pending requests are kept');
      await drainPrivacyQueue(t.runtime.deps);
      now = start;
    });
  });

  it('publishes the routes in the OpenAPI document, secured by bearer token and a required passkey', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json', headers: { host: 'localhost' } })).json();
    const create = doc.paths['/privacy/v1/forgetRequests'].post;
    // The bearer token is the security scheme; the passkey is each operation's required parameter.
    assert.deepEqual(create.security, [{ bearer: [] }]);
    for (const [path, method] of [
      ['/privacy/v1/forgetRequests', 'post'],
      ['/privacy/v1/accessRequests', 'get'],
      ['/privacy/v1/accessRequests/{id}/export', 'get'],
    ] as const) {
      const passkey = doc.paths[path][method].parameters.find((p: { name: string }) => p.name === 'passkey');
      assert.equal(passkey?.in, 'query', `${method} ${path}`);
      assert.equal(passkey?.required, true, `${method} ${path}`);
    }
    assert.ok(create.responses['201']);
    assert.ok(create.responses['4XX'] ?? create.responses['4xx']);
    const list = doc.paths['/privacy/v1/accessRequests'].get;
    assert.ok(list.parameters.some((p: { name: string }) => p.name === 'submittedAfter'));
    assert.ok(doc.paths['/privacy/v1/accessRequests/{id}/export'].get.responses['200']);
  });
});
