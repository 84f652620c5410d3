import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { seedTestTenant, type TestTenant } from '../../helpers/credentials.js';
import { createTestApp, type TestApp } from '../../helpers/test-runtime.js';

export const EN = 'Acme-EN_GB';
export const DE = 'Acme-DE_DE';
export const EN_REVIEW = 'demo-acme-en_gb-1';
export const EN_REVIEW_2 = 'demo-acme-en_gb-2';
export const DE_REVIEW = 'demo-acme-de_de-1';

export interface CallOptions {
  method?: InjectOptions['method'];
  /** Defaults to the tenant's token; null sends no Authorization header. */
  token?: string | null;
  /** Defaults to the tenant's response passkey; null sends none. */
  passkey?: string | null;
  host?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ResponseHarness {
  readonly t: TestApp;
  readonly tenant: TestTenant;
  call(path: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  create(
    clientName: string,
    reviewId: string,
    attributes: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** An app with the demo tenant seeded in production, and a caller that fills in its credentials. */
export async function createResponseHarness(
  env: Record<string, string> = {},
  options: { clock?: () => number } = {},
): Promise<ResponseHarness> {
  const t = await createTestApp(env, options);
  const tenant = await seedTestTenant(t.runtime, 'production');
  const call = (path: string, o: CallOptions = {}) => {
    const token = o.token === undefined ? tenant.token : o.token;
    const passkey = o.passkey === undefined ? tenant.responsePasskey : o.passkey;
    const url = passkey === null ? path : `${path}${path.includes('?') ? '&' : '?'}passkey=${passkey}`;
    const headers: Record<string, string> = { host: o.host ?? 'localhost:8080', ...o.headers };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    return t.app.inject({
      method: o.method ?? 'GET',
      url,
      headers,
      ...(o.body === undefined ? {} : { payload: o.body as InjectOptions['payload'] }),
    });
  };
  return {
    t,
    tenant,
    call,
    create: (clientName, reviewId, attributes, o = {}) =>
      call(`/response/v1/clientResponses/${clientName}/reviews/${reviewId}`, {
        method: 'POST',
        body: { attributes },
        ...o,
      }),
    close: () => t.close(),
  };
}
