import type { ServiceDeps } from '../../services/deps.js';
import type { RouteRow } from '../route-table.js';
import type { AdminOperation } from './admin-operation.js';
import { oversightAdminRoutes } from './oversight-admin-routes.js';
import { passkeyAdminRoutes } from './passkey-admin-routes.js';
import { tenancyAdminRoutes } from './tenancy-admin-routes.js';
import { webhookAdminRoutes } from './webhook-admin-routes.js';

/**
 * The admin API's routes under /admin/v1 (docs/operations.md, Admin API), in the order of its
 * OpenAPI document. Each area's route table is in its *-admin-routes.ts; each operation's scope,
 * request parts and answers in *-admin-operations.ts.
 */
export function adminRoutes(deps: ServiceDeps): RouteRow<AdminOperation>[] {
  return [
    ...tenancyAdminRoutes(deps),
    ...passkeyAdminRoutes(deps),
    ...webhookAdminRoutes(deps),
    ...oversightAdminRoutes(deps),
  ];
}
