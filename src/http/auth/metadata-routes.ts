import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_CREDENTIALS_GRANT, OFFLINE_ACCESS } from '../../domain/token-request.js';
import { Problem } from '../errors/error-schemas.js';
import type { HttpDeps } from '../http-deps.js';
import { ref } from '../openapi/schema-ref.js';
import { type RouteTableApi, registerRouteTable, route } from '../route-table.js';
import { AuthorizationServerMetadata } from './auth-schemas.js';

const AUTH_METHODS = ['client_secret_basic', 'client_secret_post'];

// At the root, outside /auth/v1, the metadata answers errors as RFC 9457 problem details.
const DISCOVERY: RouteTableApi = {
  steps: () => ({}),
  errorAnswers: {
    mediaType: 'application/problem+json',
    schema: ref(Problem),
    challenge: 'bearer',
    otherClientErrors:
      '400 (Host missing, malformed or sent twice), 408 (request too slow), 421 (host not in ' +
      'ALLOWED_HOSTS), 431 (header section too large)',
  },
  // Public: discovery comes before a client has credentials (RFC 8414 §3).
  security: () => [],
};

const GET_METADATA = {
  operationId: 'getAuthorizationServerMetadata',
  tag: 'Token service',
  summary: 'Authorization server metadata (RFC 8414)',
  request: {},
  answer: {
    status: 200,
    mediaType: 'application/json',
    schema: AuthorizationServerMetadata,
    description: 'RFC 8414 authorization server metadata',
  },
  errors: {},
};

/**
 * RFC 8414 authorization server metadata, so OAuth libraries configure themselves by discovery.
 * The issuer is the request's own base URL: production and staging hosts are separate issuers
 * with separate clients, and §3.3 requires the issuer to match the URL discovery started from.
 */
export function metadataRoutes(deps: HttpDeps): FastifyPluginAsync {
  // The issuer is whatever host the request names. Only when ALLOWED_HOSTS bounds those may a
  // shared cache keep the answer (RFC 9111 §5.2.2): otherwise one request with a forged Host
  // would hand that issuer to everyone behind the cache. Behind a trusted proxy the host comes
  // from X-Forwarded-Host, which a cache keyed on the URL must tell apart as well.
  const cacheControl = deps.config.allowedHosts ? 'public, max-age=3600' : 'no-store';
  const vary = deps.config.trustProxy ? 'X-Forwarded-Host' : null;
  const metadata = (request: FastifyRequest, reply: FastifyReply) => {
    const base = request.site.baseUrl;
    reply.header('cache-control', cacheControl);
    if (vary) reply.header('vary', vary);
    return {
      issuer: base,
      token_endpoint: `${base}/auth/v1/oauth2/token`,
      revocation_endpoint: `${base}/auth/v1/oauth2/revoke`,
      grant_types_supported: [CLIENT_CREDENTIALS_GRANT],
      // No authorization endpoint, so no response types (the member itself is REQUIRED).
      response_types_supported: [],
      token_endpoint_auth_methods_supported: AUTH_METHODS,
      revocation_endpoint_auth_methods_supported: AUTH_METHODS,
      scopes_supported: [OFFLINE_ACCESS],
    };
  };
  return async (app) => {
    registerRouteTable(app, DISCOVERY, [
      route('GET', '/.well-known/oauth-authorization-server', GET_METADATA, {}, metadata),
    ]);
  };
}
