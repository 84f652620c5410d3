import { listWebhookEndpoints as listRows } from '../../store/repositories/webhook-endpoints.js';
import type { ServiceDeps } from '../deps.js';
import { type WebhookEndpoint, webhookEndpointView } from './webhook-endpoint-view.js';

export async function listWebhookEndpoints(
  deps: ServiceDeps,
  filter: { applicationId?: string } = {},
): Promise<WebhookEndpoint[]> {
  const rows = await listRows(deps.store.db, { ...filter, now: deps.clock() });
  return rows.map(webhookEndpointView);
}
