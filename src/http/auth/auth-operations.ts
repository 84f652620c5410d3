import { Type } from 'typebox';
import { type ErrorAnswers, RATE_LIMIT_HEADERS } from '../openapi/documented-answers.js';
import { ref } from '../openapi/schema-ref.js';
import { taggedOperations } from '../route-table.js';
import * as S from './auth-schemas.js';

/** How the token service's errors are documented: RFC 6749 §5.2 bodies, an HTTP Basic challenge. */
export const OAUTH_ERROR_ANSWERS: ErrorAnswers = {
  mediaType: 'application/json',
  schema: ref(S.OAuthError),
  challenge: 'basic',
  otherClientErrors:
    'invalid_request: 405 (method not allowed), 408 (the request did not arrive within ' +
    'REQUEST_TIMEOUT_MS), 421 (host not in ALLOWED_HOSTS), 431 (header section too large)',
};

const OAUTH_STATUSES = {
  400:
    'invalid_request (missing or repeated parameter, a Content-Type other than form-encoded UTF-8, ' +
    'both authentication methods, a passkey not of the application), unsupported_grant_type, ' +
    'invalid_scope, unauthorized_client (revoked application)',
  401: 'invalid_client (unknown client or wrong secret)',
  413: 'invalid_request: the body is larger than BODY_LIMIT_BYTES',
  429:
    'slow_down: the passkey is over its rate limit or quota, or too many failed authentications ' +
    'of this client id or address',
  503:
    'temporarily_unavailable: the database or the rate-limit store cannot serve right now, or the ' +
    'server is shutting down',
} as const;

/**
 * The token service's operations (RFC 6749 §4.4, RFC 7009), by operation id: what each reads,
 * answers, and why it sends each error status, in the RFC 6749 §5.2 shape.
 */
export const TOKEN_OPERATIONS = taggedOperations('Token service', {
  issueAccessToken: {
    summary: 'Get an access token (client credentials)',
    request: S.IssueToken,
    // RFC 6749 §5.1: token answers are never cached; a passkey's allowance when one was charged.
    answer: {
      status: 200,
      mediaType: 'application/json',
      schema: S.TokenResponse,
      description: 'The access token (RFC 6749 §5.1)',
      headers: {
        'Cache-Control': Type.String({ description: 'RFC 6749 §5.1: no-store', examples: ['no-store'] }),
        ...RATE_LIMIT_HEADERS,
      },
    },
    errors: OAUTH_STATUSES,
    charged: true,
  },
  revokeAccessToken: {
    summary: 'Revoke an access token (RFC 7009)',
    request: S.RevokeToken,
    answer: {
      status: 200,
      mediaType: 'application/json',
      schema: S.Revoked,
      description: S.REVOKED,
    },
    // RFC 7009 §2.2.1; no passkey pays for a revocation.
    errors: {
      ...OAUTH_STATUSES,
      429: 'slow_down: too many failed authentications of this client id or address',
    },
  },
});
