import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { createAllowedMethods } from '../../src/http/allowed-methods.js';
import { createTestApp, type TestApp } from '../helpers/test-runtime.js';

const RESPONSE = '00000000-0000-4000-8000-000000000000';

/**
 * RFC 9110 §15.5.6: a method the target resource does not support is 405 with an Allow header
 * listing the ones it does, in the error shape of the API the path falls under; a path no method
 * serves stays 404. Routing comes before authentication, so neither needs a credential.
 */
describe('methods a resource does not support', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'OPTIONS', url: string) =>
    t.app.inject({ method, url, headers: { host: 'localhost' } });
  const assertNotAllowed = (r: Awaited<ReturnType<typeof call>>, allow: string) => {
    assert.equal(r.statusCode, 405, r.body);
    assert.equal(r.headers.allow, allow);
  };

  it('answers GET on the token endpoint with 405, Allow: POST, as an OAuth error', async () => {
    const r = await call('GET', '/auth/v1/oauth2/token');
    assertNotAllowed(r, 'POST');
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.json().error, 'invalid_request');
    assert.match(r.json().error_description, /GET/);
  });

  it('answers the Response API with 405 as a JSON:API error, under both prefixes', async () => {
    for (const prefix of ['/response/v1', '/contentmanagement/v1']) {
      const r = await call('PUT', `${prefix}/clientResponses/${RESPONSE}/author?passkey=rpa_pk_x`);
      assertNotAllowed(r, 'GET, HEAD');
      assert.equal(r.headers['content-type'], 'application/vnd.api+json; charset=utf-8');
      const body = r.json();
      assert.equal(body.httpCode, 405);
      assert.equal(body.errors[0].code, 'METHOD_NOT_ALLOWED');
      assert.ok(!r.body.includes('rpa_pk_x'), 'the answer echoes the query');
    }
    const one = await call('POST', `/response/v1/clientResponses/${RESPONSE}`);
    assertNotAllowed(one, 'DELETE, GET, HEAD, PATCH');
  });

  it('answers the Privacy API with 405 as problem details', async () => {
    const r = await call('DELETE', '/privacy/v1/forgetRequests');
    assertNotAllowed(r, 'GET, HEAD, POST');
    assert.equal(r.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(r.json().type, '/problems/method-not-allowed');
    assert.equal(r.json().status, 405);
  });

  it('answers paths outside the APIs the same way', async () => {
    const r = await call('POST', '/healthz');
    assertNotAllowed(r, 'GET, HEAD');
    assert.equal(r.json().code, 'METHOD_NOT_ALLOWED');
    const options = await call('OPTIONS', '/auth/v1/oauth2/revoke');
    assertNotAllowed(options, 'POST');
  });

  it('keeps 404 for a path that no method serves', async () => {
    for (const url of ['/nope', '/auth/v1/nope', '/response/v1/nope', '/privacy/v1/nope']) {
      const r = await call('GET', url);
      assert.equal(r.statusCode, 404, `${url}: ${r.body}`);
      assert.equal(r.headers.allow, undefined);
    }
    // A response GUID past the router's longest parameter matches no route, whatever the method.
    const long = await call('PUT', `/response/v1/clientResponses/${'a'.repeat(600)}/author`);
    assert.equal(long.statusCode, 404, long.body);
  });

  // The path is decoded once, as the server's router decodes it: `%25` is a `%` and `%2F` a `/`
  // inside one segment, never something the decoded text spells once more.
  it('matches encoded paths as the server routes them', async () => {
    for (const url of ['/heal%2574hz', '/healthz%2F', '/healthz%3Fx', '/healthz%23x', '/%2F']) {
      const r = await call('GET', url);
      assert.equal(r.statusCode, 404, `${url}: ${r.body}`);
      assert.equal(r.headers.allow, undefined, url);
    }
    const encodedSlash = '/response/v1/clientResponses/abc%2Fdef/author';
    assert.equal((await call('GET', encodedSlash)).statusCode, 401, 'GET is routed there');
    const put = await call('PUT', encodedSlash);
    assertNotAllowed(put, 'GET, HEAD');
    const healthz = await call('POST', '/healthz?x=%2F');
    assert.equal(healthz.statusCode, 405, healthz.body);
  });

  it("leaves a route declared twice to the server's own refusal", () => {
    const app = Fastify();
    app.addHook('onRoute', createAllowedMethods().add);
    const handler = async () => 'ok';
    app.get('/twice', handler);
    assert.throws(() => app.get('/twice', handler), { code: 'FST_ERR_DUPLICATED_ROUTE' });
  });
});
