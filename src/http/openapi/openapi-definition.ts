import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { Config } from '../../config.js';
import { STAGING_PREFIX } from '../../domain/environment.js';
import { webhookDefinitions } from './webhook-definitions.js';

const API_VERSION = '1.0.0';

/**
 * Where the API is served. Production and staging differ by host only: staging is the production
 * host with the `stg.` prefix (docs/interface.md §10.1). The host is a variable because a
 * self-hosted server answers on names its operator chooses: the first of ALLOWED_HOSTS when set,
 * else this server's own port on localhost.
 */
function servers(config: Config) {
  const host = {
    default: config.allowedHosts?.[0] ?? `localhost:${config.port}`,
    description: "The production host name, with :port when not the scheme's default",
  };
  return [
    {
      url: `${config.publicScheme}://{host}`,
      description: 'Production',
      variables: { host },
    },
    {
      url: `${config.publicScheme}://${STAGING_PREFIX}{host}`,
      description: `Staging: the production host with the ${STAGING_PREFIX} prefix, its own clients and credentials`,
      variables: { host },
    },
  ];
}

const TAGS = [
  {
    name: 'Token service',
    description:
      'OAuth 2.0 client credentials (RFC 6749 §4.4): exchange the application key and secret for a ' +
      'bearer token, revoke it (RFC 7009), discover the endpoints (RFC 8414).',
  },
  {
    name: 'Response API',
    description:
      'Answer reviews as the client: responses are JSON:API resources (application/vnd.api+json). ' +
      'Every call needs a bearer token and the Response API passkey in the `passkey` query parameter.',
  },
  {
    name: 'Response API (deprecated /contentmanagement prefix)',
    description:
      'The same operations under their old prefix, answered identically plus Deprecation and Link ' +
      'headers pointing at /response.',
  },
  {
    name: 'Privacy: forget requests',
    description:
      "Right to be forgotten: erase an end user's reviews, responses and identifiers, and keep them " +
      'from being imported again. At most one pending request per end user.',
  },
  {
    name: 'Privacy: access requests',
    description: "Right of access: export an end user's data as one JSON document.",
  },
  {
    name: 'Webhooks',
    description:
      'What the server sends to the endpoints an operator registers (`rpa webhooks add`): privacy ' +
      'request events, signed as Standard Webhooks. See docs/webhooks.md.',
  },
];

/** The OpenAPI 3.1 root that @fastify/swagger completes with every route's schema. */
export function openApiDefinition(config: Config): NonNullable<FastifyDynamicSwaggerOptions['openapi']> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reviews partner API',
      version: API_VERSION,
      description:
        'Token service (OAuth 2.0 client credentials), Response API (JSON:API) and Privacy API of a ' +
        'reviews platform, self-hosted. Staging hosts carry a `stg.` prefix.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: servers(config),
    tags: TAGS,
    webhooks: webhookDefinitions(),
    components: {
      // No apiKey scheme for the passkey: @fastify/swagger drops a query parameter that a scheme
      // covers, and the passkey belongs in each operation as the required parameter it is.
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Access token from POST /auth/v1/oauth2/token',
        },
        clientSecretBasic: {
          type: 'http',
          scheme: 'basic',
          description:
            'Application key and secret (RFC 6749 §2.3.1); or client_id and client_secret in the body',
        },
      },
    },
  };
}
