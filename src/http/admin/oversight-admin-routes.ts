import type { ServiceDeps } from '../../services/deps.js';
import { type RouteRow, route } from '../route-table.js';
import type { AdminOperation } from './admin-operation.js';
import { oversightAdminHandlers } from './oversight-admin-handlers.js';
import { oversightOperations as o } from './oversight-admin-operations.js';

/**
 * Privacy requests across applications, suppression lifts, signing keys and the audit trail. The
 * signing keys and the trail serve both environments, so their paths name none.
 */
export function oversightAdminRoutes(deps: ServiceDeps): RouteRow<AdminOperation>[] {
  const oversight = oversightAdminHandlers(deps);
  // biome-ignore format: a route table, one route per line
  return [
    route('GET',  '/:environment/privacy-requests',  o.listPrivacyRequests, {}, oversight.listPrivacyRequests),
    route('POST', '/:environment/suppression-lifts', o.liftSuppression,     {}, oversight.liftSuppression),
    route('POST', '/signing-keys',                   o.rotateSigningKey,    {}, oversight.rotateSigningKey),
    route('GET',  '/audit-events',                   o.listAuditEvents,     {}, oversight.listAuditEvents),
  ];
}
