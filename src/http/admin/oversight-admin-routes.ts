import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../services/deps.js';
import type { AdminRouteOptions } from './admin-operation.js';
import { oversightAdminHandlers } from './oversight-admin-handlers.js';
import { oversightOperations as o } from './oversight-admin-operations.js';

/**
 * Privacy requests across applications, suppression lifts, signing keys and the audit trail. The
 * signing keys and the trail serve both environments, so their paths name none.
 */
export function registerOversightAdminRoutes(
  plugin: FastifyInstance,
  route: AdminRouteOptions,
  deps: ServiceDeps,
): void {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const oversight = oversightAdminHandlers(deps);
  app.get('/:environment/privacy-requests', route(o.listPrivacyRequests), oversight.listPrivacyRequests);
  app.post('/:environment/suppression-lifts', route(o.liftSuppression), oversight.liftSuppression);
  app.post('/signing-keys', route(o.rotateSigningKey), oversight.rotateSigningKey);
  app.get('/audit-events', route(o.listAuditEvents), oversight.listAuditEvents);
}
