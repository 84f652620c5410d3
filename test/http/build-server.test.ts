import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { seedTestTenant, type TestTenant } from '../helpers/credentials.js';
import { createTestApp, type TestApp } from '../helpers/test-runtime.js';

describe('HTTP foundation', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ ALLOWED_HOSTS: 'localhost,api.example.com' });
  });
  after(() => t.close());

  it('answers /healthz and /readyz', async () => {
    const h = await t.app.inject({ url: '/healthz', headers: { host: 'localhost' } });
    assert.equal(h.statusCode, 200);
    const r = await t.app.inject({ url: '/readyz', headers: { host: 'localhost' } });
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().status, 'ok');
  });

  it('serves staging hosts and answers unknown hosts with 421', async () => {
    const stg = await t.app.inject({ url: '/healthz', headers: { host: 'stg.api.example.com' } });
    assert.equal(stg.statusCode, 200);
    const other = await t.app.inject({ url: '/healthz', headers: { host: 'evil.example.net' } });
    assert.equal(other.statusCode, 421);
    assert.equal(other.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(other.json().status, 421);
  });

  it('answers unknown paths in the shape of the API they fall under', async () => {
    const root = await t.app.inject({ url: '/nope', headers: { host: 'localhost' } });
    assert.equal(root.statusCode, 404);
    assert.equal(root.json().type, '/problems/not-found');
    const response = await t.app.inject({
      url: '/response/v1/nope?passkey=secret',
      headers: { host: 'localhost' },
    });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().httpCode, 404);
    assert.equal(response.json().requestURI, '/response/v1/nope');
    assert.equal(response.json().errors[0].status, '404');
    const privacy = await t.app.inject({ url: '/privacy/v1/nope', headers: { host: 'localhost' } });
    assert.equal(privacy.headers['content-type'], 'application/problem+json; charset=utf-8');
    const auth = await t.app.inject({ url: '/auth/v1/nope', headers: { host: 'localhost' } });
    assert.equal(auth.statusCode, 404);
    assert.ok(typeof auth.json().error === 'string');
  });

  it('echoes a well-formed X-Request-Id and makes one up otherwise', async () => {
    const given = await t.app.inject({
      url: '/healthz',
      headers: { host: 'localhost', 'x-request-id': 'abc-123' },
    });
    assert.equal(given.headers['x-request-id'], 'abc-123');
    const made = await t.app.inject({
      url: '/healthz',
      headers: { host: 'localhost', 'x-request-id': 'bad id!' },
    });
    assert.match(String(made.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('publishes an OpenAPI 3.1 document', async () => {
    const r = await t.app.inject({ url: '/openapi.json', headers: { host: 'localhost' } });
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().openapi, '3.1.0');
  });

  it('never logs the passkey query value or the Authorization header', async () => {
    await t.app.inject({
      url: '/response/v1/clientResponses/x/author?passkey=rpa_pk_SHOULD_NOT_APPEAR',
      headers: { host: 'localhost', authorization: 'Bearer rpa_at_SHOULD_NOT_APPEAR' },
    });
    const logs = t.runtime.logs.text();
    assert.ok(logs.includes('/response/v1/clientResponses/x/author?passkey=[REDACTED]'));
    assert.ok(!logs.includes('SHOULD_NOT_APPEAR'));
  });
});

describe('headers on every answer', () => {
  let t: TestApp;
  let tenant: TestTenant;
  before(async () => {
    t = await createTestApp({ ALLOWED_HOSTS: 'localhost' });
    tenant = await seedTestTenant(t.runtime, 'production');
  });
  after(() => t.close());

  const call = (url: string, options: Omit<InjectOptions, 'url'> & { auth?: boolean } = {}) => {
    const { auth, ...rest } = options;
    return t.app.inject({
      url,
      ...rest,
      headers: {
        host: 'localhost',
        ...(auth ? { authorization: `Bearer ${tenant.token}` } : {}),
        ...(rest.headers as Record<string, string> | undefined),
      },
    });
  };
  const response = (path: string) =>
    `/response/v1/clientResponses${path}${path.includes('?') ? '&' : '?'}passkey=${tenant.responsePasskey}`;
  const privacy = (path: string) =>
    `/privacy/v1${path}${path.includes('?') ? '&' : '?'}passkey=${tenant.privacyPasskey}`;

  const answers = (): Record<string, Promise<LightMyRequestResponse>> => ({
    healthz: call('/healthz'),
    openapi: call('/openapi.json'),
    metadata: call('/.well-known/oauth-authorization-server'),
    'unknown path': call('/nope'),
    'misdirected host': call('/healthz', { headers: { host: 'evil.example' } }),
    'token error': call('/auth/v1/oauth2/token', { method: 'POST' }),
    'response list': call(response('/Acme-EN_GB/reviews/demo-acme-en_gb-1'), { auth: true }),
    'response counts': call(response('/reviews/-/responses'), {
      method: 'POST',
      auth: true,
      payload: { reviewIds: ['demo-acme-en_gb-1'] },
    }),
    'response 401': call(response('/Acme-EN_GB/reviews/demo-acme-en_gb-1')),
    'response 404': call(response('/00000000-0000-4000-8000-000000000000'), { auth: true }),
    'response unknown path': call('/response/v1/nope'),
    'contentmanagement list': call(
      `/contentmanagement/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1?passkey=${tenant.responsePasskey}`,
      { auth: true },
    ),
    'privacy list': call(privacy('/forgetRequests'), { auth: true }),
    'privacy 401': call(privacy('/forgetRequests')),
    'privacy unknown path': call('/privacy/v1/nope'),
    'privacy misdirected': call(privacy('/forgetRequests'), {
      auth: true,
      headers: { host: 'evil.example' },
    }),
  });

  it('sends X-Content-Type-Options: nosniff on every answer', async () => {
    for (const [name, pending] of Object.entries(answers())) {
      const res = await pending;
      assert.equal(res.headers['x-content-type-options'], 'nosniff', `${name} (${res.statusCode})`);
    }
  });

  it('sends Cache-Control: no-store on every Response API and Privacy API answer', async () => {
    for (const [name, pending] of Object.entries(answers())) {
      if (!/^(response|contentmanagement|privacy)/.test(name)) continue;
      const res = await pending;
      assert.equal(res.headers['cache-control'], 'no-store', `${name} (${res.statusCode})`);
    }
  });

  it('answers the Response API calls above as their names say', async () => {
    const a = answers();
    const expected: Record<string, number> = {
      'response list': 200,
      'response counts': 200,
      'response 401': 401,
      'response 404': 404,
      'contentmanagement list': 200,
      'privacy list': 200,
      'privacy misdirected': 421,
    };
    for (const [name, status] of Object.entries(expected))
      assert.equal((await a[name])?.statusCode, status, name);
  });
});
