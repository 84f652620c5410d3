import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../services/deps.js';
import { adminRouteOptions } from './admin-operation.js';
import type { AdminAccess } from './authenticate-admin.js';
import { registerOversightAdminRoutes } from './oversight-admin-routes.js';
import { registerPasskeyAdminRoutes } from './passkey-admin-routes.js';
import { registerTenancyAdminRoutes } from './tenancy-admin-routes.js';
import { registerWebhookAdminRoutes } from './webhook-admin-routes.js';

/**
 * The admin API under /admin/v1 (docs/operations.md, Admin API). Each area's route table is in its
 * *-admin-routes.ts; each operation's scope, request parts and answers in *-admin-operations.ts.
 */
export function registerAdminRoutes(app: FastifyInstance, deps: ServiceDeps, access: AdminAccess): void {
  const route = adminRouteOptions(deps, access);
  registerTenancyAdminRoutes(app, route, deps);
  registerPasskeyAdminRoutes(app, route, deps);
  registerWebhookAdminRoutes(app, route, deps);
  registerOversightAdminRoutes(app, route, deps);
}
