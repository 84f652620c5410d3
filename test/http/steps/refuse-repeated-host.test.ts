import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ListeningApp, listenTestApp, portOf, rawRequest } from '../../helpers/raw-http.js';
import { createTestAdminApp, type TestAdminApp } from '../../helpers/test-admin-app.js';

/** Node's parser keeps the first Host line in `headers`, so only a real socket can send two. */
async function assertRefused(port: number, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    for (const hosts of [
      'Host: localhost\r\nHost: evil.example',
      'Host: localhost\r\nhost: localhost',
      'Host: localhost\r\nX-A: 1\r\nHOST: evil.example',
    ]) {
      const res = await rawRequest(port, `GET ${path} HTTP/1.1\r\n${hosts}\r\n\r\n`);
      assert.equal(res.status, 400, `${path} ${JSON.stringify(hosts)}: ${res.text.slice(0, 300)}`);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', res.text);
      assert.ok(res.headers['x-request-id'], res.text);
      const body = JSON.parse(res.body);
      assert.equal(body.status, 400);
      assert.equal(body.code, 'INVALID_REQUEST');
      assert.match(body.detail, /Host header must be sent once/);
      assert.ok(!res.body.includes('evil.example'));
    }
  }
}

describe('a request with more than one Host line (RFC 9112 §3.2)', () => {
  describe('on the public listener', () => {
    let t: ListeningApp;
    before(async () => {
      t = await listenTestApp();
    });
    after(() => t.close());

    it('is refused with 400, whatever the path', async () => {
      await assertRefused(t.port, ['/healthz', '/privacy/v1/forgetRequests', '/nowhere']);
    });
  });

  describe('on the admin listener', () => {
    let t: TestAdminApp;
    let port: number;
    before(async () => {
      t = await createTestAdminApp();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = portOf(t.app);
    });
    after(() => t.close());

    it('is refused with 400, whatever the path', async () => {
      await assertRefused(port, ['/admin/v1/openapi.json', '/admin/v1/production/clients', '/nowhere']);
    });

    it('still serves one Host line', async () => {
      const res = await rawRequest(port, 'GET /admin/v1/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n');
      assert.equal(res.status, 200, res.text);
    });
  });
});
