import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../services/deps.js';
import { reportDatabaseOutage } from '../../services/health/report-database-outage.js';
import { ignoreContentTypeWithoutBody } from '../accept-json-bodies.js';
import { apiRoutesSetup } from '../api-routes-setup.js';
import { registerRouteTable } from '../route-table.js';
import { installAllowedMethods, NAMED_SCHEMA_REFS, serverOptions } from '../server-options.js';
import { refuseRepeatedHost } from '../steps/refuse-repeated-host.js';
import { refuseWhileClosing } from '../steps/refuse-while-closing.js';
import { endRequestSpan, traceRequests } from '../trace-requests.js';
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
 * problems, `Cache-Control: no-store` (answers may carry secrets shown once), and one log line per
 * request naming the admin token's id, never its value.
 */
export async function buildAdminServer(deps: ServiceDeps, access: AdminAccess): Promise<FastifyInstance> {
  const app = Fastify({
    ...serverOptions(deps),
    // Its own setting: the public API's proxy is not the admin listener's (docs/configuration.md).
    trustProxy: deps.config.admin?.trustProxy ?? false,
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
  app.addHook('onResponse', (request, reply, done) => {
    if (request.requestSpan)
      endRequestSpan(request.requestSpan, request, reply.statusCode, reply.elapsedTime);
    request.log.info(
      {
        route: request.routeOptions.url,
        method: request.method,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 1000) / 1000,
        actor: request.adminCaller?.actor,
        error: reply.statusCode >= 400 ? (request.errorCode ?? undefined) : undefined,
      },
      'admin request completed',
    );
    done();
  });
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
