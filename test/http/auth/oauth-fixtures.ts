import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

export const TOKEN_PATH = '/auth/v1/oauth2/token';
export const REVOKE_PATH = '/auth/v1/oauth2/revoke';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** RFC 6749 Appendix B: each half is form-urlencoded, then the pair is base64-encoded. */
export function basicAuth(clientId: string, clientSecret: string): string {
  const encode = (v: string) => new URLSearchParams({ v }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

export interface FormCall {
  /** Sent as is when a string (to build repeated or malformed bodies). */
  body?: Record<string, string> | string;
  headers?: Record<string, string>;
  host?: string;
  query?: string;
  remoteAddress?: string;
}

export function postForm(
  app: FastifyInstance,
  path: string,
  call: FormCall = {},
): Promise<LightMyRequestResponse> {
  const payload = typeof call.body === 'string' ? call.body : new URLSearchParams(call.body ?? {}).toString();
  const options: InjectOptions = {
    method: 'POST',
    url: call.query ? `${path}?${call.query}` : path,
    headers: { host: call.host ?? 'localhost:8080', 'content-type': FORM_TYPE, ...call.headers },
    payload,
    ...(call.remoteAddress ? { remoteAddress: call.remoteAddress } : {}),
  };
  return app.inject(options);
}

/** client_secret_post token request. */
export function requestToken(
  app: FastifyInstance,
  clientId: string,
  clientSecret: string,
  call: Omit<FormCall, 'body'> & { extra?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return postForm(app, TOKEN_PATH, {
    ...call,
    body: {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      ...call.extra,
    },
  });
}
