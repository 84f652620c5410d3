import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { encodeListCursor, listCursorKey } from '../../src/domain/list-cursor.js';
import { seedTestTenant, type TestTenant } from '../helpers/credentials.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../helpers/test-runtime.js';
import { basicAuth, TOKEN_PATH } from './auth/oauth-fixtures.js';

/** A marker identifier: it may be sent anywhere, and must come back in no link and no log line. */
const MARKER_EMAIL = 'fuzz.marker@example.org';

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
const hostileText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: anyCodeUnit, maxLength: 30 }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '%00', MARKER_EMAIL, `${MARKER_EMAIL}\u0000`),
);
/** What a JSON body may carry where the API expects text: coercion would turn these into text. */
const anyJsonForText = fc.oneof(
  { arbitrary: hostileText, weight: 3 },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);

const percentEncodeAll = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const MARKER_FORMS = [
  MARKER_EMAIL,
  encodeURIComponent(MARKER_EMAIL),
  percentEncodeAll(MARKER_EMAIL),
  'fuzz.marker',
];

/** A valid piece most of the time, so that many requests get past authentication and validation. */
const mostly = <T>(valid: fc.Arbitrary<T>, ...invalid: fc.Arbitrary<T>[]) =>
  fc.oneof({ arbitrary: valid, weight: invalid.length * 3 }, ...invalid);

/** Spellings of the passkey parameter that a query parser may still read as the passkey. */
const passkeyName = mostly(
  fc.constant('passkey'),
  fc.constantFrom('%70asskey', 'pass%6bey', 'PASSKEY', 'passkey[]', 'passkey%5B%5D', '%70%61%73%73%6b%65%79'),
);

const contentTypes = fc.constantFrom<string | null>(
  null,
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  ';;;',
);

function tally(statuses: Map<number, number>, status: number): void {
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
}

function between(statuses: Map<number, number>, min: number, max: number): number {
  return [...statuses].filter(([s]) => s >= min && s <= max).reduce((n, [, k]) => n + k, 0);
}

/**
 * Input an attacker chooses, sent to the Privacy API and the token service on the database under
 * test: NUL characters in every place that reaches a query, JSON values of the wrong type, encoded
 * credential names, content types without bodies. Never a 5xx, always the API's own error shape,
 * never a coerced value accepted, never an identifier in a link or a log line.
 */
describe(`edge fuzz on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  let tenant: TestTenant;

  before(async () => {
    t = await createTestApp();
    tenant = await seedTestTenant(t.runtime, 'production');
  });
  after(async () => {
    const logs = t.runtime.logs.text();
    await t.close();
    for (const secret of [tenant.privacyPasskey, tenant.responsePasskey, tenant.clientSecret, tenant.token]) {
      assert.equal(logs.includes(secret), false, 'a credential reached a log line');
    }
    for (const form of MARKER_FORMS) assert.equal(logs.includes(form), false, `a log line contains ${form}`);
  });

  it('Privacy API: hostile paths, filters, cursors and bodies', async () => {
    // Requests filed under the marker, so filtered lists have pages and links to check.
    for (const clientName of ['Acme-EN_GB', 'Acme-DE_DE']) {
      const filed = await t.app.inject({
        method: 'POST',
        url: `/privacy/v1/accessRequests?passkey=${tenant.privacyPasskey}`,
        headers: {
          host: 'localhost',
          authorization: `Bearer ${tenant.token}`,
          'content-type': 'application/json',
        },
        payload: { emailAddress: MARKER_EMAIL, clientNames: [clientName] },
      });
      assert.equal(filed.statusCode, 201, filed.body);
    }
    // Sealed with the key this application's cursors open with, so hostile positions get past the seal.
    const cursorKey = listCursorKey(t.runtime.deps.identifierKey, tenant.applicationId);
    const forgedCursor = fc
      .tuple(fc.integer(), hostileText)
      .map(([at, id]) => encodeListCursor(cursorKey, { position: { at, id }, identifier: null }));
    const id = mostly(
      fc.constant('00000000-0000-4000-8000-000000000000'),
      fc.constantFrom('%00', 'a%00b', '%ZZ', 'x'.repeat(200)),
      hostileText.map(percentEncodeAll),
    );
    const filter = fc.oneof(
      fc.constant(`emailAddress=${encodeURIComponent(MARKER_EMAIL)}`),
      fc.constant(`%65mailAddress=${percentEncodeAll(MARKER_EMAIL)}`),
      fc
        .tuple(
          fc.constantFrom(
            'status',
            'clientName',
            'id',
            'authorId',
            'phoneNumber',
            'submittedAfter',
            'limit',
            'cursor',
          ),
          hostileText,
        )
        .map(([name, value]) => `${name}=${percentEncodeAll(value)}`),
      forgedCursor.map((c) => `cursor=${c}`),
      fc.constant('limit=1'),
    );
    const kind = fc.constantFrom('forget', 'access');
    const body = fc.oneof(
      fc
        .record(
          {
            authorId: anyJsonForText,
            emailAddress: anyJsonForText,
            phoneNumber: anyJsonForText,
            clientNames: fc.oneof(
              fc.constant(['Acme-EN_GB']),
              fc.array(anyJsonForText, { maxLength: 2 }),
              anyJsonForText,
            ),
          },
          { requiredKeys: [] },
        )
        .map((b) => JSON.stringify(b)),
      fc.constantFrom('', '{', '[]', 'null', '{"authorId":"a\\u0000"}'),
    );
    const call = fc.oneof(
      fc.record({
        method: fc.constant<InjectOptions['method']>('POST'),
        path: kind.map((k) => `/privacy/v1/${k}Requests`),
        query: fc.constant<string[]>([]),
        body: fc.option(body),
      }),
      fc.record({
        method: fc.constantFrom<InjectOptions['method']>('GET', 'DELETE'),
        path: fc
          .tuple(kind, id, fc.constantFrom('', '/export'))
          .map(([k, i, s]) => `/privacy/v1/${k}Requests/${i}${s}`),
        query: fc.constant<string[]>([]),
        body: fc.constant(null),
      }),
      fc.record({
        method: fc.constant<InjectOptions['method']>('GET'),
        path: kind.map((k) => `/privacy/v1/${k}Requests`),
        query: fc.array(filter, { maxLength: 3 }),
        body: fc.constant(null),
      }),
    );

    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(call, passkeyName, contentTypes, async (c, pkName, contentType) => {
        const query = [`${pkName}=${tenant.privacyPasskey}`, ...c.query].join('&');
        const headers: Record<string, string> = {
          host: 'localhost',
          authorization: `Bearer ${tenant.token}`,
        };
        if (contentType !== null) headers['content-type'] = contentType;
        const r = await t.app.inject({
          method: c.method,
          url: `${c.path}?${query}`,
          headers,
          ...(c.body === null ? {} : { payload: c.body }),
        });
        tally(statuses, r.statusCode);
        const what = `${c.method} ${c.path}?${query} ${c.body ?? ''} -> ${r.statusCode} ${r.body.slice(0, 300)}`;
        assert.ok(r.statusCode < 500, what);
        if (r.statusCode >= 400) {
          assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8', what);
          assert.equal(r.json().status, r.statusCode, what);
        }
        if (r.statusCode === 201) {
          // Accepted only as typed: every identifier sent was text, every client name too.
          const sent = JSON.parse(c.body as string) as Record<string, unknown>;
          for (const key of ['authorId', 'emailAddress', 'phoneNumber']) {
            if (key in sent) assert.equal(typeof sent[key], 'string', what);
          }
          if ('clientNames' in sent) {
            assert.ok(Array.isArray(sent.clientNames), what);
            for (const name of sent.clientNames as unknown[]) assert.equal(typeof name, 'string', what);
          }
        }
        if (r.statusCode === 200 && c.path.endsWith('Requests')) {
          const links = JSON.stringify(r.json().links);
          for (const form of MARKER_FORMS) assert.ok(!links.includes(form), `${what}: links carry ${form}`);
        }
      }),
      { numRuns: 250 },
    );
    const seen = JSON.stringify([...statuses].sort(([a], [b]) => a - b));
    assert.ok(between(statuses, 200, 299) > 0, `some requests succeeded: ${seen}`);
    assert.ok(between(statuses, 400, 400) > 0, `some requests failed validation: ${seen}`);
  });

  it('token service: hostile client ids, secrets, Basic credentials and content types', async () => {
    const credential = mostly(
      fc.constant(tenant.clientId),
      hostileText,
      fc.constantFrom(`${tenant.clientId}\u0000`, `\u0000${tenant.clientId}`, MARKER_EMAIL),
    );
    const secret = mostly(
      fc.constant(tenant.clientSecret),
      hostileText,
      fc.constant(`${tenant.clientSecret}\u0000`),
    );
    const auth = fc.oneof(
      fc.record({ kind: fc.constant('post' as const), id: credential, secret }),
      fc.record({ kind: fc.constant('basic' as const), id: credential, secret }),
      fc.record({
        kind: fc.constant('raw' as const),
        id: fc.uint8Array({ maxLength: 24 }).map((b) => `Basic ${Buffer.from(b).toString('base64')}`),
        secret: fc.constant(''),
      }),
    );
    const statuses = new Map<number, number>();
    let address = 0;
    await fc.assert(
      fc.asyncProperty(
        auth,
        mostly(fc.constant('application/x-www-form-urlencoded'), contentTypes),
        fc.option(passkeyName),
        async (a, contentType, pkName) => {
          const form = new URLSearchParams({ grant_type: 'client_credentials' });
          const headers: Record<string, string> = { host: 'localhost' };
          if (a.kind === 'post') {
            form.set('client_id', a.id);
            form.set('client_secret', a.secret);
          } else if (a.kind === 'basic') {
            headers.authorization = basicAuth(a.id, a.secret);
          } else {
            headers.authorization = a.id;
          }
          if (contentType !== null) headers['content-type'] = contentType;
          const url = pkName ? `${TOKEN_PATH}?${pkName}=${tenant.responsePasskey}` : TOKEN_PATH;
          // A fresh address per call, so the failure throttle never turns the run into 429s.
          address++;
          const r: LightMyRequestResponse = await t.app.inject({
            method: 'POST',
            url,
            headers,
            payload: form.toString(),
            remoteAddress: `10.9.${address >> 8}.${address & 255}`,
          });
          tally(statuses, r.statusCode);
          const what = `${a.kind} ${JSON.stringify(a.id)} ${contentType} -> ${r.statusCode} ${r.body}`;
          assert.ok(r.statusCode < 500, what);
          if (r.statusCode >= 400) {
            assert.match(String(r.headers['content-type']), /^application\/json/, what);
            const err = r.json();
            assert.equal(typeof err.error, 'string', what);
            for (const value of [tenant.clientSecret, MARKER_EMAIL]) assert.ok(!r.body.includes(value), what);
          }
        },
      ),
      { numRuns: 250 },
    );
    const seen = JSON.stringify([...statuses].sort(([a], [b]) => a - b));
    assert.ok(between(statuses, 200, 200) > 0, `some token requests succeeded: ${seen}`);
    assert.ok(between(statuses, 400, 401) > 0, `some token requests failed: ${seen}`);
  });
});
