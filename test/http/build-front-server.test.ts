import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { buildFrontServer } from '../../src/http/build-front-server.js';
import { buildServer } from '../../src/http/build-server.js';
import { createInstanceState } from '../../src/services/health/instance-state.js';
import { createTestRuntime } from '../helpers/test-runtime.js';

describe('the listener of rpa serve', () => {
  it('answers 503 in each API shape until the application is handed over, then the application answers', async () => {
    const runtime = await createTestRuntime();
    const instance = createInstanceState();
    instance.blocker = { detail: 'the database is not reachable' };
    const front = buildFrontServer(runtime.http, instance);
    await front.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
    try {
      assert.equal((await fetch(`${base}/healthz`)).status, 200);
      const ready = await fetch(`${base}/readyz`);
      assert.equal(ready.status, 503);
      assert.match(ready.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assert.match(((await ready.json()) as { detail: string }).detail, /database is not reachable/);
      const token = await fetch(`${base}/auth/v1/oauth2/token`, { method: 'POST', body: 'grant_type=x' });
      assert.equal(token.status, 503);
      assert.equal(token.headers.get('retry-after'), '5');
      assert.equal(token.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await token.json(), {
        error: 'temporarily_unavailable',
        error_description: 'Service unavailable',
      });
      const listed = await fetch(`${base}/contentmanagement/v1/clientResponses?passkey=p`);
      assert.equal(listed.status, 503);
      assert.equal(listed.headers.get('content-type'), 'application/vnd.api+json; charset=utf-8');
      const unknown = await fetch(`${base}/nowhere`);
      assert.equal(unknown.status, 503);
      assert.equal(unknown.headers.get('content-type'), 'application/problem+json; charset=utf-8');

      const app = await buildServer(runtime.http, { instance, serverFactory: front.serverFactory });
      await app.ready();
      front.serve(app);
      instance.phase = 'serving';
      instance.blocker = null;
      const served = await fetch(`${base}/readyz`, { headers: { host: 'localhost' } });
      assert.equal(served.status, 200, await served.clone().text());
      const refused = await fetch(`${base}/auth/v1/oauth2/token`, {
        method: 'POST',
        headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      });
      assert.equal(refused.status, 401, 'the token endpoint itself answers now');
    } finally {
      await front.close();
      await runtime.close();
    }
  });
});
