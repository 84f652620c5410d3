import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { normalizeIdentifier } from '../../../src/domain/identifiers.js';
import { privacySubject } from '../../../src/domain/privacy-subject.js';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import { createClient } from '../../../src/services/tenancy/create-client.js';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import {
  drainPrivacyQueue,
  importReviewsBy,
  issueTestToken,
  type PrivacyClient,
  type PrivacyTenant,
  privacyClient,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../../helpers/test-runtime.js';

const EVE = 'Eve.Forgotten@Example.com';
const PAGED = 'fay.paged@example.com';

/** Query parameters of a link, as a client following it would send them (plus its passkey). */
function queryOf(link: string): Record<string, string> {
  return Object.fromEntries(new URL(link).searchParams);
}

/** Every text a cursor can be read as: itself, and its bytes decoded as base64url or base64. */
function readings(cursor: string): { texts: string[]; bytes: Buffer[] } {
  const bytes = [Buffer.from(cursor, 'base64url'), Buffer.from(cursor, 'base64')];
  const texts = [
    cursor,
    ...bytes.flatMap((b) =>
      ['utf8', 'latin1', 'hex', 'base64', 'base64url'].map((e) => b.toString(e as BufferEncoding)),
    ),
  ];
  return { texts, bytes };
}

describe(`Privacy API list cursors hold no keyed hash of an identifier (${TEST_DIALECT})`, () => {
  let now = Date.parse('2026-05-01T08:00:00.000Z');
  let t: TestApp;
  let acme: PrivacyTenant;
  let c: PrivacyClient;
  let globex: PrivacyClient;

  before(async () => {
    t = await createTestApp({}, { clock: () => now });
    const deps = t.runtime.deps;
    acme = await seedPrivacyTenant(deps);
    c = privacyClient(t.app, acme);
    // Eve is forgotten in a client the demo application has no grant for, by the one that has.
    await createClient(deps, { environment: 'production', name: 'Globex-FR' });
    const created = await createApplication(deps, {
      environment: 'production',
      name: 'Globex',
      clientNames: ['Globex-FR'],
    });
    const passkey = await createPasskey(deps, { applicationId: created.application.id, api: 'privacy' });
    globex = privacyClient(t.app, {
      token: await issueTestToken(deps, created.application.id),
      privacyPasskey: passkey.value,
    });
    await importReviewsBy(deps, { name: 'Eve', emailAddress: EVE }, { clientName: 'Globex-FR', count: 1 });
    const forgotten = await globex.post('forget', { emailAddress: EVE, clientNames: ['Globex-FR'] });
    assert.equal(forgotten.statusCode, 201, forgotten.body);
    await drainPrivacyQueue(deps);
    // Requests of the demo application's own, to page through.
    for (let i = 0; i < 5; i++) {
      now += 1000;
      const filed = await c.post('access', { emailAddress: PAGED, clientNames: ['Acme-EN_GB'] });
      assert.equal(filed.statusCode, 201, filed.body);
      await drainPrivacyQueue(deps);
    }
  });
  after(() => t.close());

  it('give a caller no hash of an address it names, nor of the one stored for a forgotten person', async () => {
    const db = t.runtime.deps.store.db;
    const stored = [
      ...(await db.selectFrom('privacy_suppressions').select('value_hash').execute()),
      ...(await db.selectFrom('privacy_request_identifiers').select('value_hash').execute()),
    ].map((r) => r.value_hash);
    const eve = privacySubject(t.runtime.deps.identifierKey, { emailAddress: EVE })[0]?.hash as string;
    assert.ok(stored.includes(eve), "Eve's suppression is stored under her keyed hash");
    const normalized = normalizeIdentifier('emailAddress', EVE);
    const digests = [normalized, EVE].flatMap((value) => [
      createHash('sha256').update(value).digest(),
      createHmac('sha256', t.runtime.deps.identifierKey).update(value).digest(),
    ]);
    const hashTexts = [
      ...stored,
      ...digests.flatMap((d) => ['hex', 'base64', 'base64url'].map((e) => d.toString(e as BufferEncoding))),
    ];
    const hashBytes = [...stored.map((h) => Buffer.from(h, 'base64url')), ...digests];

    const cursors: string[] = [];
    for (const [path, query] of [
      ['/accessRequests', { emailAddress: EVE }],
      ['/forgetRequests', { emailAddress: EVE }],
      ['/accessRequests', { emailAddress: PAGED, limit: '2' }],
    ] as const) {
      const res = await c.get(path, query);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json();
      for (const link of [page.links.self, page.links.next]) {
        const cursor = link === undefined ? undefined : queryOf(link).cursor;
        if (cursor !== undefined) cursors.push(cursor);
      }
    }
    assert.ok(cursors.length >= 4, 'a filtered list names its pages with cursors');
    for (const cursor of cursors) {
      const { texts, bytes } = readings(cursor);
      for (const text of texts)
        for (const hash of hashTexts) assert.ok(!text.includes(hash), `${cursor} holds ${hash}`);
      for (const b of bytes)
        for (const hash of hashBytes) assert.equal(b.indexOf(hash), -1, `${cursor} holds a hash`);
    }
  });

  it('page every request of a filtered list exactly once', async () => {
    const seen: string[] = [];
    let query: Record<string, string> | undefined = { emailAddress: PAGED, limit: '2' };
    let pages = 0;
    while (query) {
      const res = await c.get('/accessRequests', query);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json();
      seen.push(...page.requests.map((r: { id: string }) => r.id));
      query = page.links.next === undefined ? undefined : queryOf(page.links.next);
      pages++;
    }
    assert.equal(pages, 3);
    assert.equal(seen.length, 5);
    assert.equal(new Set(seen).size, 5, 'a request was listed twice');
    assert.deepEqual(seen, [...seen].sort().reverse(), 'newest first');
    const all = (await c.get('/accessRequests', { emailAddress: PAGED })).json();
    assert.deepEqual(
      all.requests.map((r: { id: string }) => r.id),
      seen,
    );
  });

  it('refuse a cursor altered, forged readable, or issued to another application (400)', async () => {
    const page = (await c.get('/accessRequests', { emailAddress: PAGED, limit: '2' })).json();
    const cursor = page.nextCursor as string;
    const at = cursor.length >> 1;
    const altered = `${cursor.slice(0, at)}${cursor[at] === 'A' ? 'B' : 'A'}${cursor.slice(at + 1)}`;
    const eve = privacySubject(t.runtime.deps.identifierKey, { emailAddress: EVE })[0]?.hash;
    const readable = Buffer.from(JSON.stringify([now, page.requests[1].id, 'emailAddress', eve])).toString(
      'base64url',
    );
    for (const [client, sent] of [
      [c, altered],
      [c, readable],
      [globex, cursor],
    ] as const) {
      const res = await client.get('/accessRequests', { cursor: sent });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 'INVALID_QUERY_PARAMETER');
      assert.equal(res.json().errors[0].field, 'cursor');
    }
    // Another application, following a link it was given, lists nothing of the first one's.
    const followed = await globex.get('/accessRequests', { emailAddress: PAGED });
    assert.deepEqual(followed.json().requests, []);
  });
});
