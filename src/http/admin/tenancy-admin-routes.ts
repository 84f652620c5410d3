import type { ServiceDeps } from '../../services/deps.js';
import { type RouteRow, route } from '../route-table.js';
import type { AdminOperation } from './admin-operation.js';
import { tenancyAdminHandlers } from './tenancy-admin-handlers.js';
import { tenancyOperations as t } from './tenancy-admin-operations.js';

/** Client instances, applications and their secrets. */
export function tenancyAdminRoutes(deps: ServiceDeps): RouteRow<AdminOperation>[] {
  const tenancy = tenancyAdminHandlers(deps);
  // biome-ignore format: a route table, one route per line
  return [
    route('GET',  '/:environment/clients',                         t.listClients,             {}, tenancy.listClients),
    route('POST', '/:environment/clients',                         t.createClient,            {}, tenancy.createClient),
    route('GET',  '/:environment/applications',                    t.listApplications,        {}, tenancy.listApplications),
    route('POST', '/:environment/applications',                    t.createApplication,       {}, tenancy.createApplication),
    route('GET',  '/:environment/applications/:app',               t.getApplication,          {}, tenancy.getApplication),
    route('POST', '/:environment/applications/:app/secrets',       t.rotateApplicationSecret, {}, tenancy.rotateApplicationSecret),
    route('POST', '/:environment/applications/:app/retire-secret', t.retireApplicationSecret, {}, tenancy.retireApplicationSecret),
    route('POST', '/:environment/applications/:app/revoke',        t.revokeApplication,       {}, tenancy.revokeApplication),
  ];
}
