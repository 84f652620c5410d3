import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import {
  createResponseHarness,
  DE,
  EN,
  EN_REVIEW,
  EN_REVIEW_2,
  type ResponseHarness,
} from './response-fixtures.js';

/** Any UTF-16 code unit, lone surrogates and NUL included: what a hostile JSON body can carry. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: anyCodeUnit, maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', 'x'.repeat(65_536), '%00', '../../etc', '{}', 'null'),
);

/** Every UTF-8 byte as %XX; unlike encodeURIComponent it accepts lone surrogates (they become U+FFFD). */
const percentEncode = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** A valid piece most of the time, so that many requests get past authentication and validation. */
const mostly = <T>(valid: fc.Arbitrary<T>, ...invalid: fc.Arbitrary<T>[]) =>
  fc.oneof({ arbitrary: valid, weight: invalid.length * 3 }, ...invalid);

describe('Response API fuzz: no request ever yields a 5xx', () => {
  let h: ResponseHarness;

  before(async () => {
    h = await createResponseHarness();
  });
  after(() => h.close());

  it('answers random paths, methods, query strings, headers and bodies with status < 500', async () => {
    const target = (await h.create(EN, EN_REVIEW, { department: 'D', response: 'fuzz target' })).json().data
      .id;
    // A generous passkey, so requests meet validation and the services rather than the limiter.
    const { value: passkey } = await createPasskey(h.t.runtime.deps, {
      applicationId: h.tenant.applicationId,
      api: 'response',
      ratePerMinute: 1_000_000,
      quotaPerDay: 1_000_000_000,
    });
    const token = h.tenant.token;

    const prefix = mostly(
      fc.constantFrom('/response/v1', '/contentmanagement/v1'),
      fc.constantFrom('/auth/v1', '/privacy/v1', '', '/response', '/RESPONSE/v1'),
    );
    const param = mostly(
      fc.constantFrom(
        target,
        target.toUpperCase(),
        '00000000-0000-4000-8000-000000000000',
        EN,
        DE,
        EN_REVIEW,
      ),
      fc.constantFrom('-', '..', '.', '%00', '%ZZ', '%2F', '%C3%A9', 'é', 'x'.repeat(600), '', 'reviews'),
      fc.string({ maxLength: 20 }).map(percentEncode),
      fc.string({ unit: 'binary', maxLength: 10 }).map(percentEncode),
    );
    const shape = fc.constantFrom(
      (a: string, _b: string) => `/clientResponses/${a}`,
      (a: string, _b: string) => `/clientResponses/${a}/author`,
      (a: string, _b: string) => `/clientResponses/${a}/review`,
      (a: string, _b: string) => `/clientResponses/${a}/relationships/author`,
      (a: string, _b: string) => `/clientResponses/${a}/relationships/review`,
      (a: string, b: string) => `/clientResponses/${a}/reviews/${b}`,
      (_a: string, _b: string) => '/clientResponses/reviews/-/responses',
      (a: string, b: string) => `/${a}/${b}`,
      (_a: string, _b: string) => '/oauth2/token',
      (_a: string, _b: string) => '/forgetRequests',
    );
    const tail = mostly(fc.constant(''), fc.constantFrom('/', '//', '/extra'));
    const randomPath = fc.tuple(prefix, shape, param, param, tail).map(([p, s, a, b, t]) => p + s(a, b) + t);
    const anyMethod = fc.constantFrom<InjectOptions['method']>(
      'GET',
      'POST',
      'PATCH',
      'DELETE',
      'PUT',
      'HEAD',
      'OPTIONS',
    );
    const randomCall = fc.record({ method: anyMethod, path: randomPath });
    // A real operation of the Response API under either prefix, with its own method.
    const routeCall = fc
      .tuple(
        fc.constantFrom('/response/v1', '/contentmanagement/v1'),
        fc.constantFrom<[InjectOptions['method'], string][]>(
          ...['', '/author', '/review', '/relationships/author', '/relationships/review'].map(
            (sub): [InjectOptions['method'], string] => ['GET', `/clientResponses/${target}${sub}`],
          ),
          ['PATCH', `/clientResponses/${target}`],
          ['GET', `/clientResponses/${EN}/reviews/${EN_REVIEW}`],
          ['POST', `/clientResponses/${DE}/reviews/demo-acme-de_de-1`],
          ['POST', '/clientResponses/reviews/-/responses'],
          ['DELETE', '/clientResponses/00000000-0000-4000-8000-000000000000'],
        ),
      )
      .map(([prefix, [method, path]]) => ({ method, path: prefix + path }));
    const call = mostly(routeCall, randomCall);

    const passkeyParam = mostly(
      fc.constant(`passkey=${passkey}`),
      fc.constantFrom(
        `passkey=${h.tenant.privacyPasskey}`,
        `passkey=${passkey}&passkey=${passkey}`,
        `%70asskey=${passkey}`,
        `pass%6bey=${passkey}`,
        `PASSKEY=${passkey}`,
        `passkey[]=${passkey}`,
        'passkey=',
        'passkey[]=x',
        '',
      ),
      fc.string({ maxLength: 30 }).map((s) => `passkey=${percentEncode(s)}`),
    );
    const extraQuery = fc.array(
      fc
        .tuple(fc.string({ maxLength: 10 }), hostileText)
        .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`),
      { maxLength: 3 },
    );
    const rawQuery = mostly(fc.constant(''), fc.constantFrom('%', '%ZZ=1', '&&&', '=', 'a=%E0%A4%A'));

    const authorization = mostly(
      fc.constant<string | null>(`Bearer ${token}`),
      fc.constantFrom<string | null>(`bearer  ${token}`, null, 'Bearer', 'Basic Zm9vOmJhcg=='),
      fc.string({ maxLength: 40 }).map((s) => `Bearer ${s}`),
    );
    const contentType = mostly(
      fc.constantFrom<string | null>('application/json', 'application/vnd.api+json', null),
      fc.constantFrom(
        'application/json; charset=utf-8',
        'application/json; charset=latin1',
        'application/vnd.api+json; ext="https://example.com/ext"',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        '*/*',
        ';;;',
      ),
      fc.string({ maxLength: 30 }),
    );
    const host = mostly(
      fc.constantFrom('localhost:8080', 'stg.localhost:8080'),
      fc.constantFrom('LOCALHOST', 'stg.', '[::1]:8080', 'a b', ''),
    );
    const accept = fc.option(
      fc.constantFrom('application/vnd.api+json', 'application/json', 'text/html', '*/*'),
    );

    // Text most of the time; any other JSON value must be refused, never coerced into text.
    const attributeValue = fc.oneof(
      { arbitrary: hostileText, weight: 4 },
      fc.integer(),
      fc.boolean(),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
    );
    const attributes = fc.record(
      {
        department: attributeValue,
        response: attributeValue,
        responseBy: fc.oneof(attributeValue, fc.constant(null)),
      },
      { requiredKeys: [] },
    );
    const body = fc.option(
      fc.oneof(
        attributes.map((a) => JSON.stringify({ attributes: a })),
        fc
          .array(fc.oneof(hostileText, fc.integer()), { maxLength: 5 })
          .map((ids) => JSON.stringify({ reviewIds: ids })),
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
        hostileText,
        fc.constantFrom(
          '{"__proto__": {"x": 1}, "attributes": {}}',
          '{"constructor": {"prototype": {}}}',
          '{',
          '[]',
          'grant_type=client_credentials&client_id=x&client_secret=y',
        ),
      ),
    );

    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          call,
          passkeyParam,
          extraQuery,
          rawQuery,
          authorization,
          contentType,
          host,
          accept,
          body,
        }),
        async (c) => {
          const query = [c.passkeyParam, ...c.extraQuery, c.rawQuery].filter(Boolean).join('&');
          const url = query ? `${c.call.path}?${query}` : c.call.path;
          const headers: Record<string, string> = { host: c.host };
          if (c.authorization !== null) headers.authorization = c.authorization;
          if (c.contentType !== null) headers['content-type'] = c.contentType;
          if (c.accept !== null) headers.accept = c.accept;
          const r = await h.t.app.inject({
            method: c.call.method,
            url,
            headers,
            ...(c.body === null ? {} : { payload: c.body }),
          });
          statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
          const what = `${c.call.method} ${url} ${c.body ?? ''} -> ${r.statusCode} ${r.body.slice(0, 300)}`;
          assert.ok(r.statusCode < 500, what);
          if (r.statusCode === 200 && (c.call.method === 'POST' || c.call.method === 'PATCH') && c.body) {
            // A body accepted by a write was taken as typed: whatever attribute it set was text.
            const sent = JSON.parse(c.body) as { attributes?: Record<string, unknown> };
            for (const name of ['department', 'response']) {
              if (sent.attributes && name in sent.attributes) {
                assert.equal(typeof sent.attributes[name], 'string', what);
                assert.ok(!(sent.attributes[name] as string).includes('\u0000'), what);
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );

    // A run that only ever met the 401 step would prove little: some requests must have got
    // through to validation and to the services.
    const seen = JSON.stringify([...statuses].sort(([a], [b]) => a - b));
    const count = (min: number, max: number) =>
      [...statuses].filter(([s]) => s >= min && s <= max).reduce((n, [, k]) => n + k, 0);
    assert.ok(count(200, 299) > 0, `some requests succeeded: ${seen}`);
    assert.ok(count(400, 400) > 0, `some requests failed validation: ${seen}`);

    const logs = h.t.runtime.logs.text();
    assert.equal(logs.includes(passkey), false, 'the passkey never reaches a log line');
    assert.equal(logs.includes(token), false, 'the token never reaches a log line');
  });
});

describe('Response API: a response created with an Idempotency-Key is created once', () => {
  let h: ResponseHarness;
  before(async () => {
    h = await createResponseHarness();
  });
  after(() => h.close());

  const attributes = { department: 'Support', response: 'Thank you, we are on it.' };
  const create = (key: string, attrs: Record<string, unknown> = attributes) =>
    h.create(EN, EN_REVIEW, attrs, {
      headers: { 'idempotency-key': key, 'content-type': 'application/vnd.api+json' },
    });

  it('answers retries, also racing the first, with the first response', async () => {
    const answers = await Promise.all([create('r-1'), create('r-1'), create('r-1')]);
    for (const res of answers) assert.equal(res.statusCode, 200, res.body);
    const ids = new Set(answers.map((res) => res.json().data.id));
    assert.equal(ids.size, 1);
    assert.equal(answers.filter((res) => res.headers['idempotent-replayed'] === 'true').length, 2);
    const again = await create('r-1');
    assert.equal(again.json().data.id, [...ids][0]);
    const listed = await h.call(`/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`);
    assert.equal(listed.json().data.length, 1);
  });

  it('takes a retry under the deprecated prefix as the same create', async () => {
    const alias = await h.call(`/contentmanagement/v1/clientResponses/${EN}/reviews/${EN_REVIEW_2}`, {
      method: 'POST',
      body: { attributes },
      headers: { 'idempotency-key': 'r-alias-2', 'content-type': 'application/vnd.api+json' },
    });
    assert.equal(alias.statusCode, 200, alias.body);
    const again = await h.create(EN, EN_REVIEW_2, attributes, {
      headers: { 'idempotency-key': 'r-alias-2', 'content-type': 'application/vnd.api+json' },
    });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.json().data.id, alias.json().data.id);
  });

  it('refuses the key with another body (422); without a key the duplicate rule still answers', async () => {
    const other = await create('r-1', { ...attributes, response: 'Another text' });
    assert.equal(other.statusCode, 422);
    assert.equal(other.json().errors[0].code, 'IDEMPOTENCY_KEY_REUSED');
    const duplicate = await h.create(EN, EN_REVIEW, attributes, {
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    assert.equal(duplicate.statusCode, 400);
    assert.equal(duplicate.json().errors[0].code, 'DUPLICATE_RESPONSE');
  });
});
