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
    route('GET',    '/:environment/webhook-endpoints',                   w.listWebhookEndpoints,  {}, webhooks.listWebhookEndpoints),
    route('POST',   '/:environment/webhook-endpoints',                   w.addWebhookEndpoint,    {}, webhooks.addWebhookEndpoint),
    route('GET',    '/:environment/webhook-endpoints/:id',               w.getWebhookEndpoint,    {}, webhooks.getWebhookEndpoint),
    route('DELETE', '/:environment/webhook-endpoints/:id',               w.removeWebhookEndpoint, {}, webhooks.removeWebhookEndpoint),
    route('POST',   '/:environment/webhook-endpoints/:id/rotate-secret', w.rotateWebhookSecret,   {}, webhooks.rotateWebhookSecret),
    route('POST',   '/:environment/webhook-endpoints/:id/enable',        w.enableWebhookEndpoint, {}, webhooks.enableWebhookEndpoint),
    route('GET',    '/:environment/webhook-deliveries',                  w.listWebhookDeliveries, {}, webhooks.listWebhookDeliveries),
  ];
}
