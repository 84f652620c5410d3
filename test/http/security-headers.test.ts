import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { seedTestTenant, type TestTenant } from '../helpers/credentials.js';
import { createTestApp, type TestApp } from '../helpers/test-runtime.js';

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
