import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../services/deps.js';
import type { AdminRouteOptions } from './admin-operation.js';
import { tenancyAdminHandlers } from './tenancy-admin-handlers.js';
import { tenancyOperations as t } from './tenancy-admin-operations.js';

/** Client instances, applications and their secrets. */
export function registerTenancyAdminRoutes(
  plugin: FastifyInstance,
  route: AdminRouteOptions,
  deps: ServiceDeps,
): void {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const tenancy = tenancyAdminHandlers(deps);
  app.get('/:environment/clients', route(t.listClients), tenancy.listClients);
  app.post('/:environment/clients', route(t.createClient), tenancy.createClient);
  app.get('/:environment/applications', route(t.listApplications), tenancy.listApplications);
  app.post('/:environment/applications', route(t.createApplication), tenancy.createApplication);
  app.get('/:environment/applications/:app', route(t.getApplication), tenancy.getApplication);
  app.post('/:environment/applications/:app/secrets', route(t.rotateSecret), tenancy.rotateSecret);
  app.post('/:environment/applications/:app/retire-secret', route(t.retireSecret), tenancy.retireSecret);
  app.post('/:environment/applications/:app/revoke', route(t.revokeApplication), tenancy.revokeApplication);
}
