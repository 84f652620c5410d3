import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { hasBody } from '../../src/http/accept-json-bodies.js';
import { TEST_DIALECT } from '../helpers/test-runtime.js';
import { createResponseHarness, type ResponseHarness } from './response/response-fixtures.js';

describe('hasBody: RFC 9112 §6.3, RFC 9110 §8.6', () => {
  it('a request has a body with Transfer-Encoding or a Content-Length above zero', () => {
    assert.equal(hasBody({}), false);
    assert.equal(hasBody({ 'content-length': '0' }), false);
    assert.equal(hasBody({ 'content-length': '12' }), true);
    assert.equal(hasBody({ 'content-length': '10' }), true);
    assert.equal(hasBody({ 'transfer-encoding': 'chunked' }), true);
  });

  it('Content-Length is a decimal number: 00 and 000 are zero too', () => {
    assert.equal(hasBody({ 'content-length': '00' }), false);
    assert.equal(hasBody({ 'content-length': '000' }), false);
    assert.equal(hasBody({ 'content-length': '007' }), true);
  });
});

/**
 * Fastify reads only `Content-Length: 0` as no body, and so did the Privacy API's default media
 * type: a POST without Content-Type and with `Content-Length: 00` was read as an empty JSON body
 * there (400 INVALID_JSON) and as an unknown media type by the Response API (415), while with `0`
 * both answer that the body is missing. The length is the same number, so the answer is too.
 */
describe(`a request without Content-Type or body, whichever zero its length is, on ${TEST_DIALECT}`, () => {
  let h: ResponseHarness;
  before(async () => {
    h = await createResponseHarness();
  });
  after(() => h.close());

  const post = (path: string, passkey: string, length: string) =>
    h.call(path, { method: 'POST', passkey, headers: { 'content-length': length }, body: '' });
  const codeOf = (res: LightMyRequestResponse) => res.json().code ?? res.json().errors?.[0]?.code;

  for (const [api, path] of [
    ['privacy', '/privacy/v1/forgetRequests'],
    ['response', '/response/v1/clientResponses/reviews/-/responses'],
  ] as const) {
    it(`the ${api} API answers 00 and 000 as it answers 0: the body is missing`, async () => {
      const passkey = api === 'privacy' ? h.tenant.privacyPasskey : h.tenant.responsePasskey;
      const zero = await post(path, passkey, '0');
      assert.equal(zero.statusCode, 400, zero.body);
      assert.equal(codeOf(zero), 'INVALID_PROPERTY_VALUE', zero.body);
      for (const length of ['00', '000']) {
        const res = await post(path, passkey, length);
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(codeOf(res), codeOf(zero), res.body);
        assert.equal(res.headers['content-type'], zero.headers['content-type']);
      }
    });
  }

  it('a body without Content-Type is still read as JSON by the Privacy API only', async () => {
    const privacy = await h.call('/privacy/v1/forgetRequests', {
      method: 'POST',
      passkey: h.tenant.privacyPasskey,
      body: Buffer.from('{}'),
    });
    assert.equal(privacy.statusCode, 400, privacy.body);
    assert.equal(codeOf(privacy), 'MISSING_PROPERTY', privacy.body);
    const response = await h.call('/response/v1/clientResponses/reviews/-/responses', {
      method: 'POST',
      body: Buffer.from('{"reviewIds":[]}'),
    });
    assert.equal(response.statusCode, 415, response.body);
  });
});
