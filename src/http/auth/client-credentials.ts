import { AppError } from '../../errors.js';
import { nulDetail } from '../steps/refuse-nul-characters.js';
import { decodeFormComponent } from './form-body.js';

type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post';

export interface PresentedCredentials {
  readonly method: ClientAuthMethod;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** The challenge sent with every invalid_client answer (RFC 6749 §5.2, RFC 7617). */
const CLIENT_CHALLENGE = 'Basic realm="reviews-partner-api", charset="UTF-8"';

export const invalidClient = (detail: string) =>
  new AppError('INVALID_CLIENT', { detail, headers: { 'www-authenticate': CLIENT_CHALLENGE } });

const invalidRequest = (detail: string, field?: string) =>
  new AppError('INVALID_REQUEST', { detail, ...(field ? { field } : {}) });

const BASIC_RE = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeBasic(header: string): { clientId: string; clientSecret: string } {
  const match = BASIC_RE.exec(header);
  if (!match) {
    // §2.3: only the methods the metadata lists are accepted; another scheme is not a client login.
    if (!/^Basic(?: |$)/i.test(header)) {
      throw invalidClient('unsupported client authentication: use HTTP Basic or client_secret_post');
    }
    throw invalidRequest('the Basic credentials are malformed');
  }
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(match[1] as string, 'base64'));
  } catch {
    throw invalidRequest('the Basic credentials are not UTF-8');
  }
  const colon = decoded.indexOf(':');
  if (colon === -1) throw invalidRequest('the Basic credentials must be client_id:client_secret');
  // RFC 6749 Appendix B / §2.3.1: both halves are form-urlencoded before base64.
  const clientId = decodeFormComponent(decoded.slice(0, colon));
  const clientSecret = decodeFormComponent(decoded.slice(colon + 1));
  if (!clientId || !clientSecret)
    throw invalidRequest('the Basic credentials must name a client and a secret');
  // Refused here like a NUL anywhere else in a request (http/steps/refuse-nul-characters.ts).
  if (clientId.includes('\u0000') || clientSecret.includes('\u0000'))
    throw invalidRequest(nulDetail('the Basic credentials'));
  return { clientId, clientSecret };
}

/**
 * RFC 6749 §2.3.1: a client authenticates with HTTP Basic (client_secret_basic) or with
 * client_id and client_secret in the body (client_secret_post), never both (§2.3: "MUST NOT use
 * more than one authentication method"). A body client_id next to Basic credentials is tolerated
 * when it names the same client, as several libraries send it (docs/design.md, Token service: a mismatch is
 * invalid_request). Missing credentials are invalid_client (§5.2: "no client authentication
 * included"), which is not a failed guess and so is never throttled.
 */
export function readClientCredentials(
  authorization: string | undefined,
  body: { readonly client_id?: string | undefined; readonly client_secret?: string | undefined },
): PresentedCredentials {
  const bodyId = body.client_id;
  const bodySecret = body.client_secret;
  if (authorization !== undefined && authorization !== '') {
    const basic = decodeBasic(authorization);
    if (bodySecret !== undefined) {
      throw invalidRequest(
        'use one client authentication method: HTTP Basic or client_secret in the body',
        'client_secret',
      );
    }
    if (bodyId !== undefined && bodyId !== basic.clientId) {
      throw invalidRequest('client_id does not match the Basic credentials', 'client_id');
    }
    return { method: 'client_secret_basic', ...basic };
  }
  if (bodyId === undefined) {
    if (bodySecret !== undefined) throw invalidRequest('client_id is required', 'client_id');
    throw invalidClient('client authentication is required: HTTP Basic or client_id and client_secret');
  }
  if (bodySecret === undefined) {
    throw invalidClient('client authentication is required: client_secret is missing');
  }
  return { method: 'client_secret_post', clientId: bodyId, clientSecret: bodySecret };
}
