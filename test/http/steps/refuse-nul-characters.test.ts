import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { encodeListCursor, listCursorKey } from '../../../src/domain/list-cursor.js';
import type { TestTenant } from '../../helpers/credentials.js';
import { TEST_DIALECT } from '../../helpers/test-runtime.js';
import { basicAuth, postForm, REVOKE_PATH, TOKEN_PATH } from '../auth/oauth-fixtures.js';
import { createResponseHarness, EN, EN_REVIEW, type ResponseHarness } from '../response/response-fixtures.js';

const JSON_API = 'application/vnd.api+json; charset=utf-8';
const PROBLEM = 'application/problem+json; charset=utf-8';
const OAUTH = 'application/json; charset=utf-8';

/**
 * Input an attacker chooses gets a clear 400 in the shape of the API it was sent to, on every
 * database: PostgreSQL refuses text with a NUL byte (SQLite stores it), so such input must be
 * refused before it reaches the store. JSON bodies are taken as typed: no coercion.
 */
describe(`hostile input is refused at the edge on ${TEST_DIALECT}`, () => {
  let h: ResponseHarness;
  let tenant: TestTenant;
  let responseGuid: string;

  before(async () => {
    h = await createResponseHarness();
    tenant = h.tenant;
    const created = await h.create(EN, EN_REVIEW, { department: 'Care', response: 'Thank you' });
    assert.equal(created.statusCode, 200, created.body);
    responseGuid = created.json().data.id;
  });
  after(() => h.close());

  /** A JSON `body` is serialized, a `raw` one sent as is; either is labelled application/json. */
  function call(
    method: InjectOptions['method'],
    url: string,
    o: { passkey?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<LightMyRequestResponse> {
    const payload = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
    return h.call(url, {
      method,
      passkey: o.passkey ?? null,
      headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...o.headers },
      ...(payload === undefined ? {} : { body: payload }),
    });
  }

  function expect400(res: LightMyRequestResponse, contentType: string, field?: RegExp): void {
    assert.equal(res.statusCode, 400, `${res.statusCode} ${res.body}`);
    assert.equal(res.headers['content-type'], contentType);
    if (!field) return;
    const body = res.json();
    const named = body.errors?.[0]?.field ?? body.error_description;
    assert.match(String(named), field, res.body);
  }

  describe('a NUL byte never reaches the database', () => {
    const privacy = (path: string) => `/privacy/v1${path}`;

    it('in a Privacy API path id', async () => {
      const res = await call('GET', privacy('/forgetRequests/abc%00def'), { passkey: tenant.privacyPasskey });
      expect400(res, PROBLEM, /^id$/);
    });

    it('in Privacy API list filters', async () => {
      for (const query of ['clientName=Acme%00', 'id=x%00y', 'emailAddress=a%00b%40example.com']) {
        const res = await call('GET', privacy(`/accessRequests?${query}`), {
          passkey: tenant.privacyPasskey,
        });
        expect400(res, PROBLEM, new RegExp(`^${query.split('=')[0]}$`));
      }
    });

    it('in a list cursor', async () => {
      const key = listCursorKey(h.t.runtime.deps.identifierKey, tenant.applicationId);
      const cursor = encodeListCursor(key, {
        position: { at: Date.now(), id: 'a\u0000b' },
        identifier: null,
      });
      const res = await call('GET', privacy(`/forgetRequests?cursor=${cursor}`), {
        passkey: tenant.privacyPasskey,
      });
      expect400(res, PROBLEM, /^cursor$/);
    });

    it('in a Privacy API body identifier or client name', async () => {
      for (const body of [
        { authorId: 'alice\u0000' },
        { emailAddress: 'alice\u0000@example.com' },
        { authorId: 'alice', clientNames: [`${EN}\u0000`] },
      ]) {
        const res = await call('POST', privacy('/forgetRequests'), { passkey: tenant.privacyPasskey, body });
        expect400(res, PROBLEM, /^(authorId|emailAddress|clientNames(\.0)?)$/);
      }
    });

    it('in Response API path parameters and body attributes', async () => {
      const paths = [
        `/response/v1/clientResponses/${EN}/reviews/demo%00x`,
        `/response/v1/clientResponses/Acme%00/reviews/${EN_REVIEW}`,
        '/response/v1/clientResponses/%00/author',
      ];
      for (const path of paths) {
        const res = await call('GET', path, { passkey: tenant.responsePasskey });
        expect400(res, JSON_API);
      }
      for (const attributes of [
        { department: 'Care\u0000', response: 'x' },
        { department: 'Care', response: 'x\u0000y' },
        { department: 'Care', response: 'x', responseBy: 'S\u0000m' },
      ]) {
        const res = await call('PATCH', `/response/v1/clientResponses/${responseGuid}`, {
          passkey: tenant.responsePasskey,
          body: { attributes },
        });
        expect400(res, JSON_API, /^attributes\.(department|response|responseBy)$/);
      }
      const counts = await call('POST', '/response/v1/clientResponses/reviews/-/responses', {
        passkey: tenant.responsePasskey,
        body: { reviewIds: [`${EN_REVIEW}\u0000`] },
      });
      expect400(counts, JSON_API);
    });

    it('in a passkey, which is named as the offending parameter', async () => {
      for (const passkey of ['pk%00x', `${tenant.responsePasskey}%00`]) {
        const res = await call(
          'GET',
          `/response/v1/clientResponses/${responseGuid}/author?passkey=${passkey}`,
        );
        expect400(res, JSON_API, /^passkey$/);
        assert.match(res.json().errors[0].detail, /NUL/);
      }
      const privacy = await call('GET', `/privacy/v1/forgetRequests?passkey=${tenant.privacyPasskey}%00`);
      expect400(privacy, PROBLEM, /^passkey$/);
      const twice = await call(
        'GET',
        `/response/v1/clientResponses/${responseGuid}/author?passkey=${tenant.responsePasskey}&passkey=%00`,
      );
      expect400(twice, JSON_API, /^passkey$/);
      assert.match(twice.json().errors[0].detail, /once/);
    });

    it('in client_id, client_secret or a Basic credential of the token service', async () => {
      for (const path of [TOKEN_PATH, REVOKE_PATH]) {
        const bodies = [
          { grant_type: 'client_credentials', token: 'x', client_id: 'rpa_ci_\u0000', client_secret: 's' },
          { grant_type: 'client_credentials', token: 'x', client_id: 'rpa_ci_x', client_secret: 's\u0000' },
        ];
        for (const body of bodies) {
          const res = await postForm(h.t.app, path, { body });
          expect400(res, OAUTH);
          assert.equal(res.json().error, 'invalid_request');
        }
        const basic = await postForm(h.t.app, path, {
          body: { grant_type: 'client_credentials', token: 'x' },
          headers: { authorization: basicAuth('rpa_ci_\u0000', 'secret') },
        });
        expect400(basic, OAUTH);
        assert.equal(basic.json().error, 'invalid_request');
      }
    });
  });

  describe('a deeply nested body is refused before anything walks it', () => {
    // Walking such a body used to take time growing with the square of its depth, freezing the
    // process for minutes on 400 KB; now it is refused in one linear pass.
    const nested = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;

    it('in the counts, create and privacy bodies', async () => {
      const deep = nested(200_000, '1');
      const targets: Array<[string, string, string, string]> = [
        [
          'POST',
          '/response/v1/clientResponses/reviews/-/responses',
          tenant.responsePasskey,
          `{"reviewIds":${deep}}`,
        ],
        [
          'POST',
          `/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`,
          tenant.responsePasskey,
          `{"attributes":{"department":"D","response":${deep}}}`,
        ],
        ['POST', '/privacy/v1/accessRequests', tenant.privacyPasskey, `{"authorId":${deep}}`],
      ];
      for (const [method, url, passkey, raw] of targets) {
        const res = await call(method as InjectOptions['method'], url, { passkey, raw });
        assert.equal(res.statusCode, 400, res.body);
        assert.match(res.body, /nested deeper than 32 levels/);
      }
    });

    it('a body within the depth limit is validated as usual', async () => {
      const res = await call('POST', '/response/v1/clientResponses/reviews/-/responses', {
        passkey: tenant.responsePasskey,
        raw: `{"reviewIds":${nested(20, '"x"')}}`,
      });
      expect400(res, JSON_API, /^reviewIds\.0$/);
    });
  });

  describe('JSON bodies are not type-coerced', () => {
    it('a number or boolean is not a Response API text', async () => {
      const res = await call('POST', `/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`, {
        passkey: tenant.responsePasskey,
        body: { attributes: { department: 123, response: false } },
      });
      expect400(res, JSON_API, /^attributes\.(department|response)$/);
      const patch = await call('PATCH', `/response/v1/clientResponses/${responseGuid}`, {
        passkey: tenant.responsePasskey,
        body: { attributes: { response: false } },
      });
      expect400(patch, JSON_API, /^attributes\.response$/);
      const stored = await call('GET', `/response/v1/clientResponses/${responseGuid}`, {
        passkey: tenant.responsePasskey,
      });
      assert.equal(stored.json().data.attributes.response, 'Thank you');
    });

    it('a number is not an identifier and a string is not a list of client names', async () => {
      const byNumber = await call('POST', '/privacy/v1/forgetRequests', {
        passkey: tenant.privacyPasskey,
        body: { authorId: 12345 },
      });
      expect400(byNumber, PROBLEM, /^authorId$/);
      const byString = await call('POST', '/privacy/v1/forgetRequests', {
        passkey: tenant.privacyPasskey,
        body: { authorId: 'nobody-1', clientNames: EN },
      });
      expect400(byString, PROBLEM, /^clientNames$/);
    });

    it('a string is not a list of review ids', async () => {
      const res = await call('POST', '/response/v1/clientResponses/reviews/-/responses', {
        passkey: tenant.responsePasskey,
        body: { reviewIds: 'x' },
      });
      expect400(res, JSON_API, /^reviewIds$/);
    });

    it('query strings still coerce: limit=2 is a number', async () => {
      const res = await call('GET', '/privacy/v1/forgetRequests?limit=2', { passkey: tenant.privacyPasskey });
      assert.equal(res.statusCode, 200, res.body);
    });
  });

  describe('a request without a body is served whatever its Content-Type says', () => {
    for (const contentType of ['application/json', 'text/plain', 'application/xml']) {
      it(`GET and DELETE with Content-Type ${contentType} and no body`, async () => {
        const headers = { 'content-type': contentType };
        const author = await call('GET', `/response/v1/clientResponses/${responseGuid}/author`, {
          passkey: tenant.responsePasskey,
          headers,
        });
        assert.equal(author.statusCode, 200, author.body);
        const list = await call('GET', '/privacy/v1/forgetRequests', {
          passkey: tenant.privacyPasskey,
          headers,
        });
        assert.equal(list.statusCode, 200, list.body);
        const metadata = await call('GET', '/.well-known/oauth-authorization-server', { headers });
        assert.equal(metadata.statusCode, 200, metadata.body);
        const created = await call('POST', `/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`, {
          passkey: tenant.responsePasskey,
          body: { attributes: { department: 'Care', response: `to delete (${contentType})` } },
        });
        const id = created.json().data.id;
        const del = await call('DELETE', `/response/v1/clientResponses/${id}`, {
          passkey: tenant.responsePasskey,
          headers: { ...headers, 'content-length': '0' },
        });
        assert.equal(del.statusCode, 204, del.body);
      });
    }

    it('DELETE and GET with a chunked, empty body and any Content-Type', async () => {
      for (const contentType of ['application/json', 'text/plain']) {
        const created = await h.create(EN, EN_REVIEW, {
          department: 'Care',
          response: `chunked (${contentType})`,
        });
        const id = created.json().data.id;
        const headers = { 'content-type': contentType, 'transfer-encoding': 'chunked' };
        const del = await call('DELETE', `/response/v1/clientResponses/${id}`, {
          passkey: tenant.responsePasskey,
          headers,
          raw: '',
        });
        assert.equal(del.statusCode, 204, del.body);
        const list = await call('GET', '/privacy/v1/forgetRequests', {
          passkey: tenant.privacyPasskey,
          headers,
          raw: '',
        });
        assert.equal(list.statusCode, 200, list.body);
      }
    });

    it('a body is still parsed by its type: text/plain is 415, broken JSON 400', async () => {
      const plain = await call('PATCH', `/response/v1/clientResponses/${responseGuid}`, {
        passkey: tenant.responsePasskey,
        raw: 'hello',
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(plain.statusCode, 415, plain.body);
      assert.equal(plain.headers['content-type'], JSON_API);
      const broken = await call('PATCH', `/response/v1/clientResponses/${responseGuid}`, {
        passkey: tenant.responsePasskey,
        raw: '{"attributes":',
      });
      assert.equal(broken.statusCode, 400, broken.body);
      assert.equal(broken.json().errors[0].code, 'INVALID_JSON');
    });

    it('a POST that needs a body and sends none is a 400 naming the body', async () => {
      const res = await call('POST', '/privacy/v1/forgetRequests', {
        passkey: tenant.privacyPasskey,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.headers['content-type'], PROBLEM);
    });
  });
});
