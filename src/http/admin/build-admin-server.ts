import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../services/deps.js';
import { reportDatabaseOutage } from '../../services/health/report-database-outage.js';
import { ignoreContentTypeWithoutBody } from '../accept-json-bodies.js';
import { apiRoutesSetup } from '../api-routes-setup.js';
import { observeResponse } from '../observe-response.js';
import { proxyTrust } from '../proxy-trust.js';
import { registerRouteTable } from '../route-table.js';
import { installAllowedMethods, NAMED_SCHEMA_REFS, serverOptions } from '../server-options.js';
import { refuseRepeatedHost } from '../steps/refuse-repeated-host.js';
import { refuseWhileClosing } from '../steps/refuse-while-closing.js';
import { traceRequests } from '../trace-requests.js';
import { createValidatorFactory } from '../validator-factory.js';
import '../request-context.js';
import './admin-caller.js';
import { ADMIN_COMPONENT_SCHEMAS, adminOpenApiDefinition } from './admin-openapi.js';
import { adminApi } from './admin-operation.js';
import { adminRoutes } from './admin-routes.js';
import type { AdminAccess } from './authenticate-admin.js';

export const ADMIN_PREFIX = '/admin/v1';

/**
 * The admin API as an application of its own, served on ADMIN_PORT (never the public port, where
 * /admin is 404) or called in-process by `rpa` (cli/admin-api.ts). JSON bodies, RFC 9457
 * problems, `Cache-Control: no-store` (answers may carry secrets shown once), and an access line
 * per request (as ACCESS_LOG says, never sampled) naming the caller's address and the admin
 * token's id, never its value.
 */
export async function buildAdminServer(deps: ServiceDeps, access: AdminAccess): Promise<FastifyInstance> {
  const app = Fastify({
    ...serverOptions(deps),
    // Its own setting, under the public listener's rule: the public API's proxy is not the admin
    // listener's (docs/configuration.md).
    trustProxy: proxyTrust(deps.config.admin?.trustProxy ?? null),
    schemaController: { compilersFactory: { buildValidator: createValidatorFactory() } },
  });
  installAllowedMethods(app);
  app.decorateRequest('adminCaller', null);
  app.decorateRequest('errorCode', null);
  traceRequests(app, deps.tracer);
  refuseWhileClosing(app);
  app.addHook('onRequest', refuseRepeatedHost);
  app.addHook('onRequest', ignoreContentTypeWithoutBody);
  app.addHook('onError', (_request, _reply, err, done) => {
    reportDatabaseOutage(deps, err);
    done();
  });
  app.addHook('onSend', (request, reply, _payload, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
  // The admin line names the caller's address (access-line.ts `req`), so a refused token and its
  // 429s can be traced to where they came from; an operator's calls are few, kept whole, and not
  // counted with partners' in the request metrics.
  app.addHook(
    'onResponse',
    observeResponse(deps, {
      msg: 'admin request completed',
      sampled: false,
      counted: false,
      caller: (request) => ({
        applicationId: undefined,
        passkeyId: undefined,
        actor: request.adminCaller?.actor,
      }),
    }),
  );
  // The listener serves the admin API alone: its setup (error shape, JSON bodies, no-store) is the
  // whole listener's, so what falls outside /admin/v1 is answered alike.
  const api = adminApi(deps, access);
  apiRoutesSetup(app, api);
  for (const schema of ADMIN_COMPONENT_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    openapi: adminOpenApiDefinition(deps.config),
    refResolver: NAMED_SCHEMA_REFS,
  });
  await app.register(
    async (admin) => {
      registerRouteTable(admin, api, adminRoutes(deps));
      admin.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: ADMIN_PREFIX },
  );
  return app;
}
