import type { ServiceDeps } from '../../services/deps.js';
import { type RouteRow, route } from '../route-table.js';
import type { AdminOperation } from './admin-operation.js';
import { webhookAdminHandlers } from './webhook-admin-handlers.js';
import { webhookOperations as w } from './webhook-admin-operations.js';

/** Webhook endpoints and their deliveries. */
export function webhookAdminRoutes(deps: ServiceDeps): RouteRow<AdminOperation>[] {
  const webhooks = webhookAdminHandlers(deps);
  // biome-ignore format: a route table, one route per line
  return [
    route('GET',    '/:environment/webhook-endpoints',                   w.listEndpoints,  {}, webhooks.listEndpoints),
    route('POST',   '/:environment/webhook-endpoints',                   w.addEndpoint,    {}, webhooks.addEndpoint),
    route('GET',    '/:environment/webhook-endpoints/:id',               w.getEndpoint,    {}, webhooks.getEndpoint),
    route('DELETE', '/:environment/webhook-endpoints/:id',               w.removeEndpoint, {}, webhooks.removeEndpoint),
    route('POST',   '/:environment/webhook-endpoints/:id/rotate-secret', w.rotateSecret,   {}, webhooks.rotateSecret),
    route('POST',   '/:environment/webhook-endpoints/:id/enable',        w.enableEndpoint, {}, webhooks.enableEndpoint),
    route('GET',    '/:environment/webhook-deliveries',                  w.listDeliveries, {}, webhooks.listDeliveries),
  ];
}
