import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { importReviewsBy } from '../../helpers/privacy-fixtures.js';
import { TEST_DIALECT } from '../../helpers/test-runtime.js';
import {
  createResponseHarness,
  DE,
  DE_REVIEW,
  EN,
  EN_REVIEW,
  EN_REVIEW_2,
  type ResponseHarness,
} from './response-fixtures.js';

const BASE = 'http://localhost:8080/response/v1/clientResponses';
const UNKNOWN_GUID = '00000000-0000-4000-8000-000000000000';

describe('Response API endpoints', () => {
  let h: ResponseHarness;
  let now = Date.UTC(2026, 10, 1, 9, 0, 0);
  before(async () => {
    h = await createResponseHarness({}, { clock: () => now });
  });
  after(() => h.close());

  const firstError = (r: { json(): unknown }) =>
    (r.json() as { errors: { code: string; field?: string; status: string }[] }).errors[0]!;

  it('creates a response (200) and reads it back with links on the request host', async () => {
    const r = await h.create(EN, EN_REVIEW, {
      department: 'Support',
      response: 'Thank you, Alice!',
      responseBy: 'Sam',
    });
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /^application\/vnd\.api\+json/);
    const { data, links } = r.json();
    assert.equal(data.type, 'clientResponse');
    assert.match(data.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(links, { self: `${BASE}/${data.id}` });
    assert.deepEqual(data.attributes, {
      department: 'Support',
      response: 'Thank you, Alice!',
      responseBy: 'Sam',
      responseSource: 'Demo application (production)',
      responderClient: EN,
      created: '2026-11-01T09:00:00.000Z',
      updated: '2026-11-01T09:00:00.000Z',
    });
    assert.deepEqual(data.relationships.review, {
      links: { self: `${BASE}/${data.id}/relationships/review`, related: `${BASE}/${data.id}/review` },
      data: { type: 'review', id: EN_REVIEW, meta: { clientName: EN } },
    });
    assert.equal(data.relationships.author.data.type, 'author');

    const got = await h.call(`/response/v1/clientResponses/${data.id}`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), r.json());
  });

  it('answers seed 4.1: the author of a response, self and related as the seed shows', async () => {
    const created = (
      await h.create(EN, EN_REVIEW, { department: 'Support', response: 'Author check' })
    ).json().data;
    const r = await h.call(`/response/v1/clientResponses/${created.id}/author`);
    assert.equal(r.statusCode, 200);
    assert.deepEqual(r.json(), {
      data: { type: 'author', id: created.relationships.author.data.id },
      links: { self: `${BASE}/${created.id}/author`, related: `${BASE}/${created.id}/author` },
    });
    const rel = await h.call(`/response/v1/clientResponses/${created.id}/relationships/author`);
    assert.equal(rel.statusCode, 200);
    assert.deepEqual(rel.json(), {
      data: { type: 'author', id: created.relationships.author.data.id },
      links: { self: `${BASE}/${created.id}/relationships/author`, related: `${BASE}/${created.id}/author` },
    });
    // GUIDs compare case-insensitively.
    const upper = await h.call(`/response/v1/clientResponses/${created.id.toUpperCase()}/author`);
    assert.equal(upper.statusCode, 200);
    assert.equal(upper.json().data.id, created.relationships.author.data.id);
  });

  it('finds or creates one author per application and name', async () => {
    const a = (
      await h.create(EN, EN_REVIEW_2, { department: 'D', response: 'one', responseBy: 'Kim' })
    ).json().data;
    const b = (
      await h.create(EN, EN_REVIEW_2, { department: 'D', response: 'two', responseBy: 'Kim' })
    ).json().data;
    const c = (await h.create(EN, EN_REVIEW_2, { department: 'D', response: 'three' })).json().data;
    const d = (await h.create(EN, EN_REVIEW_2, { department: 'D', response: 'four' })).json().data;
    assert.equal(a.relationships.author.data.id, b.relationships.author.data.id);
    assert.equal(c.relationships.author.data.id, d.relationships.author.data.id);
    assert.notEqual(a.relationships.author.data.id, c.relationships.author.data.id);
  });

  it('answers /review and /relationships/review', async () => {
    const created = (await h.create(DE, DE_REVIEW, { department: 'Kundendienst', response: 'Danke!' })).json()
      .data;
    const r = await h.call(`/response/v1/clientResponses/${created.id}/review`);
    assert.equal(r.statusCode, 200);
    const body = r.json();
    assert.equal(body.data.type, 'review');
    assert.equal(body.data.id, DE_REVIEW);
    assert.equal(body.data.attributes.clientName, DE);
    assert.equal(body.data.attributes.rating, 5);
    assert.equal(body.data.attributes.submittedAt, '2026-01-10T00:00:00.000Z');
    assert.equal(JSON.stringify(body).includes('example.com'), false, 'no review author identifiers');
    assert.deepEqual(body.links, {
      self: `${BASE}/${created.id}/review`,
      related: `${BASE}/${created.id}/review`,
    });
    const rel = await h.call(`/response/v1/clientResponses/${created.id}/relationships/review`);
    assert.equal(rel.statusCode, 200);
    assert.deepEqual(rel.json(), {
      data: { type: 'review', id: DE_REVIEW, meta: { clientName: DE } },
      links: { self: `${BASE}/${created.id}/relationships/review`, related: `${BASE}/${created.id}/review` },
    });
  });

  it('lists the responses of a review, oldest first, and an empty list for an unanswered one', async () => {
    const review = 'demo-acme-en_gb-3';
    now += 1000;
    const first = (await h.create(EN, review, { department: 'D', response: 'first' })).json().data;
    now += 1000;
    const second = (await h.create(EN, review, { department: 'D', response: 'second' })).json().data;
    const r = await h.call(`/response/v1/clientResponses/${EN}/reviews/${review}`);
    assert.equal(r.statusCode, 200);
    assert.deepEqual(
      r.json().data.map((d: { id: string }) => d.id),
      [first.id, second.id],
    );
    assert.deepEqual(r.json().links, { self: `${BASE}/${EN}/reviews/${review}` });
    const empty = await h.call(`/response/v1/clientResponses/${DE}/reviews/demo-acme-de_de-3`);
    assert.equal(empty.statusCode, 200);
    assert.deepEqual(empty.json().data, []);
  });

  it('lists a review’s responses a page at a time: 100 by default, page[size] on request, next until the last', async () => {
    const review = DE_REVIEW;
    const counted = await h.call('/response/v1/clientResponses/reviews/-/responses', {
      method: 'POST',
      body: { reviewIds: [review] },
    });
    const before = counted.json().counts[0]?.responseCount ?? 0;
    const ids: string[] = [];
    for (let i = 0; i < 101; i++) {
      // Some share a creation time: their ids order them.
      if (i % 3 === 0) now += 1000;
      ids.push((await h.create(DE, review, { department: 'D', response: `page ${i}` })).json().data.id);
    }
    const total = before + ids.length;
    const list = `${BASE}/${DE}/reviews/${review}`;
    const pages = async (first: string) => {
      const seen: { ids: string[]; links: { self: string; next?: string } }[] = [];
      for (let url: string | undefined = first; url !== undefined; ) {
        const { pathname, search } = new URL(url);
        const r = await h.call(`${pathname}${search}`);
        assert.equal(r.statusCode, 200, r.body);
        const body = r.json();
        seen.push({ ids: body.data.map((d: { id: string }) => d.id), links: body.links });
        url = body.links.next;
      }
      return seen;
    };
    const byDefault = await pages(list);
    assert.deepEqual(
      byDefault.map((p) => p.ids.length),
      [100, total - 100],
    );
    const listed = byDefault.flatMap((p) => p.ids);
    // Oldest first; of those created at the same time, the lower id first.
    const created = (i: number) => Math.floor(i / 3);
    const expected = ids
      .map((id, i) => ({ id, at: created(i) }))
      .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
      .map((r) => r.id);
    assert.deepEqual(listed.slice(before), expected, 'each once, in order');
    assert.equal(byDefault[0]?.links.self, list);
    assert.equal(byDefault[1]?.links.next, undefined);

    const bySize = await pages(`${list}?page%5Bsize%5D=40`);
    assert.deepEqual(
      bySize.map((p) => p.ids.length),
      [40, 40, total - 80],
    );
    assert.deepEqual(
      bySize.flatMap((p) => p.ids),
      listed,
    );
    assert.equal(bySize[0]?.links.self, `${list}?page%5Bsize%5D=40`);
    // Each page's self link is the next link that led to it; none carries the passkey.
    assert.equal(bySize[1]?.links.self, bySize[0]?.links.next);
    assert.match(bySize[0]?.links.next ?? '', /^[^?]+\?page%5Bsize%5D=40&page%5Bafter%5D=[A-Za-z0-9_-]+$/);
    const legacy = await h.call(`/contentmanagement/v1/clientResponses/${DE}/reviews/${review}?page[size]=1`);
    assert.equal(legacy.json().links.next.startsWith(`${list}?`), true);
  });

  it('refuses a page size or a cursor it cannot use: 400 naming the parameter', async () => {
    const list = `/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`;
    const forged = Buffer.from(JSON.stringify(['x', 'y'])).toString('base64url');
    for (const [query, parameter] of [
      ['page[size]=0', 'page[size]'],
      ['page[size]=1001', 'page[size]'],
      ['page[size]=ten', 'page[size]'],
      ['page[after]=not*a*cursor', 'page[after]'],
      [`page[after]=${forged}`, 'page[after]'],
    ] as const) {
      const r = await h.call(`${list}?${query}`);
      assert.equal(r.statusCode, 400, query);
      assert.match(String(r.headers['content-type']), /^application\/vnd\.api\+json/);
      const error = firstError(r) as { code: string; source?: { parameter?: string } };
      assert.equal(error.code, 'INVALID_QUERY_PARAMETER', query);
      assert.equal(error.source?.parameter, parameter, query);
    }
  });

  it('lists and creates only for a known review of the named client: otherwise 400', async () => {
    for (const [client, review] of [
      [EN, 'no-such-review'],
      [EN, DE_REVIEW],
    ]) {
      const list = await h.call(`/response/v1/clientResponses/${client}/reviews/${review}`);
      assert.equal(list.statusCode, 400);
      assert.equal(firstError(list).code, 'UNKNOWN_REVIEW');
      const create = await h.create(client as string, review as string, { department: 'D', response: 'x' });
      assert.equal(create.statusCode, 400);
      assert.equal(firstError(create).field, 'reviewId');
    }
  });

  it('updates some attributes, keeps created and moves updated', async () => {
    now += 1000;
    const created = (
      await h.create(EN, EN_REVIEW, { department: 'Sales', response: 'Before', responseBy: 'Ann' })
    ).json().data;
    now += 60_000;
    const r = await h.call(`/response/v1/clientResponses/${created.id}`, {
      method: 'PATCH',
      body: { attributes: { response: 'After' } },
    });
    assert.equal(r.statusCode, 200);
    const a = r.json().data.attributes;
    assert.equal(a.response, 'After');
    assert.equal(a.department, 'Sales');
    assert.equal(a.responseBy, 'Ann');
    assert.equal(a.created, created.attributes.created);
    assert.equal(Date.parse(a.updated) - Date.parse(a.created), 60_000);
    assert.equal(r.json().data.relationships.author.data.id, created.relationships.author.data.id);

    const cleared = await h.call(`/response/v1/clientResponses/${created.id}`, {
      method: 'PATCH',
      body: { attributes: { responseBy: null, department: 'Care' } },
    });
    assert.equal(cleared.statusCode, 200);
    assert.equal(cleared.json().data.attributes.responseBy, null);
    assert.equal(cleared.json().data.attributes.department, 'Care');
    assert.notEqual(cleared.json().data.relationships.author.data.id, created.relationships.author.data.id);
    const again = await h.call(`/response/v1/clientResponses/${created.id}`);
    assert.deepEqual(again.json(), cleared.json());
  });

  it('refuses an identical duplicate response text on create and on update (400)', async () => {
    const text = 'We are sorry to hear that.';
    assert.equal((await h.create(EN, EN_REVIEW_2, { department: 'D', response: text })).statusCode, 200);
    const dup = await h.create(EN, EN_REVIEW_2, { department: 'Other', response: text });
    assert.equal(dup.statusCode, 400);
    assert.equal(firstError(dup).code, 'DUPLICATE_RESPONSE');
    // The same text on another review is fine.
    assert.equal(
      (await h.create(EN, 'demo-acme-en_gb-3', { department: 'D', response: text })).statusCode,
      200,
    );
    const other = (await h.create(EN, EN_REVIEW_2, { department: 'D', response: 'different' })).json().data;
    const upd = await h.call(`/response/v1/clientResponses/${other.id}`, {
      method: 'PATCH',
      body: { attributes: { response: text } },
    });
    assert.equal(upd.statusCode, 400);
    assert.equal(firstError(upd).code, 'DUPLICATE_RESPONSE');
    const unchanged = await h.call(`/response/v1/clientResponses/${other.id}`);
    assert.equal(unchanged.json().data.attributes.response, 'different');
  });

  it('holds the duplicate rule and one author per name under concurrent requests', async () => {
    const same = await Promise.all(
      Array.from({ length: 8 }, () => h.create(DE, DE_REVIEW, { department: 'D', response: 'raced text' })),
    );
    assert.deepEqual(same.map((r) => r.statusCode).sort(), [200, 400, 400, 400, 400, 400, 400, 400]);
    const authors = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.create(DE, DE_REVIEW, {
          department: 'D',
          response: `raced ${i}`,
          responseBy: 'New Person',
        }),
      ),
    );
    assert.ok(authors.every((r) => r.statusCode === 200));
    assert.equal(new Set(authors.map((r) => r.json().data.relationships.author.data.id)).size, 1);
  });

  it('answers a response to a review erased while it is written as to an unknown review (400)', async () => {
    const db = h.t.runtime.deps.store.db;
    const [reviewId] = await importReviewsBy(
      h.t.runtime.deps,
      { name: 'Erased Soon' },
      { clientName: EN, count: 1 },
    );
    // The erasure lands between the check that the review exists and the insert of its response.
    const erase = `DELETE FROM reviews WHERE id = NEW.review_id`;
    const when = `NEW.review_id = '${reviewId}'`;
    if (TEST_DIALECT === 'postgres') {
      await sql
        .raw(`CREATE FUNCTION erase_review() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN ${erase}; RETURN NEW; END $$`)
        .execute(db);
      await sql
        .raw(`CREATE TRIGGER erase_review BEFORE INSERT ON client_responses
        FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION erase_review()`)
        .execute(db);
    } else {
      await sql
        .raw(`CREATE TRIGGER erase_review BEFORE INSERT ON client_responses
        WHEN ${when} BEGIN ${erase}; END`)
        .execute(db);
    }
    try {
      const r = await h.create(EN, reviewId as string, { department: 'D', response: 'Too late' });
      assert.equal(r.statusCode, 400, r.body);
      assert.equal(firstError(r).code, 'UNKNOWN_REVIEW');
      assert.equal(firstError(r).field, 'reviewId');
      // Here the erasure ran in the create's own transaction, so it was rolled back with it.
      const listed = await h.call(`/response/v1/clientResponses/${EN}/reviews/${reviewId}`);
      assert.deepEqual(listed.json().data, [], 'nothing was written');
    } finally {
      await sql
        .raw('DROP TRIGGER erase_review' + (TEST_DIALECT === 'postgres' ? ' ON client_responses' : ''))
        .execute(db);
      if (TEST_DIALECT === 'postgres') await sql.raw('DROP FUNCTION erase_review').execute(db);
    }
  });

  it('validates bodies as the public system does', async () => {
    const cases: [unknown, string][] = [
      [{}, 'attributes'],
      [{ attributes: { response: 'x' } }, 'attributes.department'],
      [{ attributes: { department: 'D' } }, 'attributes.response'],
      [{ attributes: { department: '', response: 'x' } }, 'attributes.department'],
      [{ attributes: { department: 'D', response: '' } }, 'attributes.response'],
      [{ attributes: { department: '   ', response: 'x' } }, 'attributes.department'],
      [{ attributes: { department: 'D', response: ' \n ' } }, 'attributes.response'],
      [{ attributes: { department: 'D', response: 'x'.repeat(65_536) } }, 'attributes.response'],
      [{ attributes: { department: 'D', response: 'nul \u0000 byte' } }, 'attributes.response'],
      [{ attributes: { department: 'D', response: 'x', colour: 'red' } }, 'attributes.colour'],
      [{ attributes: 'text' }, 'attributes'],
    ];
    for (const [body, field] of cases) {
      const r = await h.call(`/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`, {
        method: 'POST',
        body,
      });
      assert.equal(r.statusCode, 400, JSON.stringify(body).slice(0, 80));
      const e = firstError(r);
      assert.equal(e.field, field, JSON.stringify(body).slice(0, 80));
      assert.equal(r.json().httpCode, 400);
      assert.equal(r.json().requestURI, `/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`);
    }
    const longest = await h.create(EN, EN_REVIEW, { department: 'D', response: 'é'.repeat(65_535) });
    assert.equal(longest.statusCode, 200);
    const emptyPatch = await h.call(`/response/v1/clientResponses/${longest.json().data.id}`, {
      method: 'PATCH',
      body: { attributes: {} },
    });
    assert.equal(emptyPatch.statusCode, 400);
    const blankPatch = await h.call(`/response/v1/clientResponses/${longest.json().data.id}`, {
      method: 'PATCH',
      body: { attributes: { response: '  ' } },
    });
    assert.equal(blankPatch.statusCode, 400);
  });

  it('answers bad GUIDs, bad JSON, wrong content types and oversized bodies with a clear 4xx', async () => {
    const badGuid = await h.call('/response/v1/clientResponses/not-a-guid/author');
    assert.equal(badGuid.statusCode, 400);
    assert.equal(firstError(badGuid).field, 'responseGuid');
    const badJson = await h.call(`/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`, {
      method: 'POST',
      body: '{"attributes": {',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(badJson.statusCode, 400);
    assert.equal(firstError(badJson).code, 'INVALID_JSON');
    const text = await h.call(`/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`, {
      method: 'POST',
      body: 'department=D&response=x',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(text.statusCode, 415);
    assert.equal(firstError(text).code, 'UNSUPPORTED_MEDIA_TYPE');
    const big = await h.call(`/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`, {
      method: 'POST',
      body: JSON.stringify({ attributes: { department: 'D', response: 'x'.repeat(1_100_000) } }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().httpCode, 413);
    const noBody = await h.call(`/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`, {
      method: 'POST',
    });
    assert.equal(noBody.statusCode, 400);
    const jsonApi = await h.call(`/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`, {
      method: 'POST',
      body: JSON.stringify({ attributes: { department: 'D', response: 'sent as JSON:API' } }),
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    assert.equal(jsonApi.statusCode, 200);
  });

  it('deletes idempotently: 204, then 404 on read, 204 again and for an unknown GUID', async () => {
    const created = (await h.create(EN, EN_REVIEW, { department: 'D', response: 'to be deleted' })).json()
      .data;
    const del = await h.call(`/response/v1/clientResponses/${created.id}`, { method: 'DELETE' });
    assert.equal(del.statusCode, 204);
    assert.equal(del.body, '');
    const gone = await h.call(`/response/v1/clientResponses/${created.id}`);
    assert.equal(gone.statusCode, 404);
    assert.deepEqual(firstError(gone), {
      status: '404',
      code: 'RESPONSE_NOT_FOUND',
      title: 'Client Response Id does not exist',
      detail: 'Client Response Id does not exist',
      source: { parameter: 'responseGuid' },
      field: 'id',
      message: 'Client Response Id does not exist',
    });
    for (const path of ['/author', '/review', '/relationships/author', '/relationships/review']) {
      assert.equal((await h.call(`/response/v1/clientResponses/${created.id}${path}`)).statusCode, 404);
    }
    const patch = await h.call(`/response/v1/clientResponses/${created.id}`, {
      method: 'PATCH',
      body: { attributes: { response: 'x' } },
    });
    assert.equal(patch.statusCode, 404);
    assert.equal(
      (await h.call(`/response/v1/clientResponses/${created.id}`, { method: 'DELETE' })).statusCode,
      204,
    );
    assert.equal(
      (await h.call(`/response/v1/clientResponses/${UNKNOWN_GUID}`, { method: 'DELETE' })).statusCode,
      204,
    );
    assert.equal((await h.call('/response/v1/clientResponses/nope', { method: 'DELETE' })).statusCode, 400);
  });

  it('counts responses per review, in the order asked, 0 for unknown or unanswered reviews', async () => {
    const review = 'demo-acme-de_de-2';
    await h.create(DE, review, { department: 'D', response: 'a' });
    await h.create(DE, review, { department: 'D', response: 'b' });
    const r = await h.call('/response/v1/clientResponses/reviews/-/responses', {
      method: 'POST',
      body: { reviewIds: [review, 'demo-acme-de_de-3', 'unknown', review] },
    });
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.deepEqual(r.json(), {
      counts: [
        { reviewId: review, responseCount: 2 },
        { reviewId: 'demo-acme-de_de-3', responseCount: 0 },
        { reviewId: 'unknown', responseCount: 0 },
      ],
    });
    const tooMany = await h.call('/response/v1/clientResponses/reviews/-/responses', {
      method: 'POST',
      body: { reviewIds: Array.from({ length: 1001 }, (_, i) => `r-${i}`) },
    });
    assert.equal(tooMany.statusCode, 400);
    assert.equal(firstError(tooMany).field, 'reviewIds');
    const missing = await h.call('/response/v1/clientResponses/reviews/-/responses', {
      method: 'POST',
      body: {},
    });
    assert.equal(missing.statusCode, 400);
    const thousand = await h.call('/response/v1/clientResponses/reviews/-/responses', {
      method: 'POST',
      body: { reviewIds: Array.from({ length: 1000 }, (_, i) => `r-${i}`) },
    });
    assert.equal(thousand.statusCode, 200);
    assert.equal(thousand.json().counts.length, 1000);
  });

  it('serves /contentmanagement identically, with Deprecation and a successor Link', async () => {
    const created = (await h.create(EN, EN_REVIEW, { department: 'D', response: 'via both prefixes' })).json()
      .data;
    for (const path of ['', '/author', '/relationships/author', '/review', '/relationships/review']) {
      const current = await h.call(`/response/v1/clientResponses/${created.id}${path}`);
      const legacy = await h.call(`/contentmanagement/v1/clientResponses/${created.id}${path}`);
      assert.equal(legacy.statusCode, 200);
      assert.equal(legacy.body, current.body);
      assert.equal(legacy.headers['content-type'], current.headers['content-type']);
      assert.equal(legacy.headers.deprecation, '@1735689600');
      assert.equal(
        legacy.headers.link,
        `<http://localhost:8080/response/v1/clientResponses/${created.id}${path}>; rel="successor-version"`,
      );
      assert.equal(legacy.headers.sunset, undefined);
      assert.equal(current.headers.deprecation, undefined);
      assert.equal(String(legacy.headers.link).includes('passkey'), false);
    }
    const legacyCreate = await h.call(`/contentmanagement/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`, {
      method: 'POST',
      body: { attributes: { department: 'D', response: 'created via the old prefix' } },
    });
    assert.equal(legacyCreate.statusCode, 200);
    assert.equal(legacyCreate.headers.deprecation, '@1735689600');
    const legacyList = await h.call(`/contentmanagement/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`);
    assert.equal(legacyList.statusCode, 200);
    const legacyCounts = await h.call('/contentmanagement/v1/clientResponses/reviews/-/responses', {
      method: 'POST',
      body: { reviewIds: [EN_REVIEW] },
    });
    assert.equal(legacyCounts.statusCode, 200);
    assert.ok(legacyCounts.json().counts[0].responseCount >= 2);
    const legacyDelete = await h.call(
      `/contentmanagement/v1/clientResponses/${legacyCreate.json().data.id}`,
      {
        method: 'DELETE',
      },
    );
    assert.equal(legacyDelete.statusCode, 204);
    assert.equal(legacyDelete.headers.deprecation, '@1735689600');
    // Errors carry the deprecation too.
    const unauthenticated = await h.call(`/contentmanagement/v1/clientResponses/${created.id}/author`, {
      token: null,
    });
    assert.equal(unauthenticated.statusCode, 401);
    assert.equal(unauthenticated.headers.deprecation, '@1735689600');
  });
});
