import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { TSchema } from 'typebox';
import type { Config } from '../../config.js';
import { VERSION } from '../../version.js';
import { Problem } from '../errors/error-schemas.js';
import { CONFIG_ADMIN_SCHEMAS, CONFIG_TAG } from './config-admin-schemas.js';
import { OVERSIGHT_ADMIN_SCHEMAS, OVERSIGHT_TAG } from './oversight-admin-schemas.js';
import { PASSKEY_ADMIN_SCHEMAS, PASSKEY_TAG } from './passkey-admin-schemas.js';
import { TENANCY_ADMIN_SCHEMAS, TENANCY_TAG } from './tenancy-admin-schemas.js';
import { WEBHOOK_ADMIN_SCHEMAS, WEBHOOK_TAG } from './webhook-admin-schemas.js';

/** Every schema admin answers refer to by name (openapi/schema-ref.ts). */
export const ADMIN_COMPONENT_SCHEMAS: readonly TSchema[] = [
  Problem,
  ...TENANCY_ADMIN_SCHEMAS,
  ...PASSKEY_ADMIN_SCHEMAS,
  ...WEBHOOK_ADMIN_SCHEMAS,
  ...CONFIG_ADMIN_SCHEMAS,
  ...OVERSIGHT_ADMIN_SCHEMAS,
];

const TAGS = [TENANCY_TAG, PASSKEY_TAG, WEBHOOK_TAG, CONFIG_TAG, OVERSIGHT_TAG];

/** The admin listener's OpenAPI 3.1 root, completed by @fastify/swagger with every admin route. */
export function adminOpenApiDefinition(config: Config): NonNullable<FastifyDynamicSwaggerOptions['openapi']> {
  const listener = config.admin ?? { host: '127.0.0.1', port: 8081 };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reviews partner API: admin',
      version: VERSION,
      description:
        'Administration of a reviews-partner-api deployment: tenancy, webhooks, privacy oversight, ' +
        'signing keys and the audit trail. Served on ADMIN_PORT only; every operation needs an admin token ' +
        'with the scope the operation names. Creates accept Idempotency-Key; lists are paged by cursor.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: `http://${listener.host}:${listener.port}`, description: 'The admin listener' }],
    tags: TAGS,
    components: {
      securitySchemes: {
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'An admin token from `rpa admin-tokens create` (rpa_adm_…)',
        },
      },
    },
  };
}
