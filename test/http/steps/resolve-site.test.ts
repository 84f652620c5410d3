import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ListeningApp, listenTestApp, rawRequest } from '../../helpers/raw-http.js';
import { createTestApp, type TestApp } from '../../helpers/test-runtime.js';

const METADATA = '/.well-known/oauth-authorization-server';

/** A shared cache may keep an answer unless it says private or no-store (RFC 9111 §5.2.2). */
function sharedCacheMayStore(cacheControl: string | undefined): boolean {
  const directives = (cacheControl ?? '').split(',').map((d) => d.trim().toLowerCase());
  return !directives.includes('no-store') && !directives.includes('private');
}

describe('the Host header', () => {
  describe('without ALLOWED_HOSTS', () => {
    let t: ListeningApp;
    before(async () => {
      t = await listenTestApp();
    });
    after(() => t.close());

    it('refuses a request with two Host header lines (RFC 9112 §3.2)', async () => {
      for (const path of ['/healthz', METADATA, '/privacy/v1/forgetRequests']) {
        const res = await rawRequest(
          t.port,
          `GET ${path} HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n`,
        );
        assert.equal(res.status, 400, `${path}: ${res.text}`);
        assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
        const body = JSON.parse(res.body);
        assert.equal(body.code, 'INVALID_REQUEST');
        assert.match(body.detail, /Host/);
        assert.ok(!res.body.includes('evil.example'));
      }
    });

    it("answers a request without Host in its API's shape (RFC 9112 §3.2: 400)", async () => {
      const cases: Array<[string, string]> = [
        ['/privacy/v1/forgetRequests', 'application/problem+json; charset=utf-8'],
        ['/response/v1/clientResponses/x/author', 'application/vnd.api+json; charset=utf-8'],
        ['/healthz', 'application/problem+json; charset=utf-8'],
      ];
      for (const [path, contentType] of cases) {
        const res = await rawRequest(t.port, `GET ${path}?passkey=rpa_pk_NOT_ECHOED HTTP/1.1\r\n\r\n`);
        assert.equal(res.status, 400, `${path}: ${res.text}`);
        assert.equal(res.headers['content-type'], contentType, res.text);
        assert.ok(res.headers['x-request-id'], res.text);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.match(res.body, /Host/);
        assert.ok(!res.text.includes('NOT_ECHOED'));
      }
      const token = await rawRequest(
        t.port,
        'POST /auth/v1/oauth2/token HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\n\r\n',
      );
      assert.equal(token.status, 400, token.text);
      assert.equal(JSON.parse(token.body).error, 'invalid_request');
    });

    it('still serves one Host header line', async () => {
      const res = await rawRequest(t.port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
      assert.equal(res.status, 200);
    });

    it('names any host as issuer, but never lets a shared cache keep that metadata', async () => {
      const res = await t.app.inject({ url: METADATA, headers: { host: 'evil.example' } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().issuer, 'http://evil.example');
      assert.equal(sharedCacheMayStore(res.headers['cache-control'] as string | undefined), false);
    });
  });

  describe('with ALLOWED_HOSTS', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ ALLOWED_HOSTS: 'api.example.com' });
    });
    after(() => t.close());
    const get = (url: string, host: string) => t.app.inject({ url, headers: { host } });

    it('lets shared caches keep the metadata of a configured host', async () => {
      for (const host of ['api.example.com', 'stg.api.example.com']) {
        const res = await get(METADATA, host);
        assert.equal(res.statusCode, 200);
        assert.equal(res.json().issuer, `http://${host}`);
        assert.equal(res.headers['cache-control'], 'public, max-age=3600');
      }
    });

    it('answers /healthz and /readyz called by IP address, as load balancer probes do', async () => {
      for (const host of ['10.0.0.7', '10.0.0.7:8080', '127.0.0.1', '[::1]:8080', '[fd00::7]']) {
        for (const path of ['/healthz', '/readyz']) {
          const res = await get(path, host);
          assert.equal(res.statusCode, 200, `${path} with Host ${host}: ${res.body}`);
        }
      }
    });

    it('keeps every other route, and other host names, behind the allow-list', async () => {
      assert.equal((await get(METADATA, '10.0.0.7')).statusCode, 421);
      assert.equal((await get('/privacy/v1/forgetRequests', '10.0.0.7')).statusCode, 421);
      assert.equal((await get('/openapi.json', '127.0.0.1')).statusCode, 421);
      assert.equal((await get('/healthz', 'evil.example')).statusCode, 421);
      assert.equal((await get('/healthz', '10.0.0.7.evil.example')).statusCode, 421);
    });
  });

  describe('behind a trusted proxy, with ALLOWED_HOSTS', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ ALLOWED_HOSTS: 'api.example.com', TRUST_PROXY: 'loopback' });
    });
    after(() => t.close());

    it('tells caches that the metadata varies with X-Forwarded-Host', async () => {
      const res = await t.app.inject({
        url: METADATA,
        headers: { host: 'api.example.com', 'x-forwarded-host': 'stg.api.example.com' },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().issuer, 'http://stg.api.example.com');
      assert.match(String(res.headers.vary), /x-forwarded-host/i);
    });
  });
});
