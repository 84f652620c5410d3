import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceDeps } from '../../services/deps.js';
import type { AdminRouteOptions } from './admin-operation.js';
import { webhookAdminHandlers } from './webhook-admin-handlers.js';
import { webhookOperations as w } from './webhook-admin-operations.js';

/** Webhook endpoints and their deliveries. */
export function registerWebhookAdminRoutes(
  plugin: FastifyInstance,
  route: AdminRouteOptions,
  deps: ServiceDeps,
): void {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const webhooks = webhookAdminHandlers(deps);
  const endpoint = '/:environment/webhook-endpoints/:id';
  app.get('/:environment/webhook-endpoints', route(w.listEndpoints), webhooks.listEndpoints);
  app.post('/:environment/webhook-endpoints', route(w.addEndpoint), webhooks.addEndpoint);
  app.get(endpoint, route(w.getEndpoint), webhooks.getEndpoint);
  app.delete(endpoint, route(w.removeEndpoint), webhooks.removeEndpoint);
  app.post(`${endpoint}/rotate-secret`, route(w.rotateSecret), webhooks.rotateSecret);
  app.post(`${endpoint}/enable`, route(w.enableEndpoint), webhooks.enableEndpoint);
  app.get('/:environment/webhook-deliveries', route(w.listDeliveries), webhooks.listDeliveries);
}
