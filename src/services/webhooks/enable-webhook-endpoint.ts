import {
  listWebhookEndpoints,
  setWebhookEndpointDisabled,
} from '../../store/repositories/webhook-endpoints.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { notFound } from './remove-webhook-endpoint.js';

/**
 * Resumes deliveries to an endpoint that answered 410 Gone: its deliveries still pending go out
 * again (those that ended with the 410 stay failed).
 */
export async function enableWebhookEndpoint(deps: ServiceDeps, input: { endpointId: string }): Promise<void> {
  await inTransaction(deps.store.db, async (trx) => {
    const [endpoint] = await listWebhookEndpoints(trx, { id: input.endpointId, now: deps.clock() });
    if (!endpoint) throw notFound(input.endpointId);
    if (endpoint.disabled_at === null) return;
    await setWebhookEndpointDisabled(trx, input.endpointId, null);
    await recordAudit(trx, deps, {
      action: 'webhook_endpoint.enabled',
      targetType: 'webhook_endpoint',
      targetId: input.endpointId,
      details: { applicationId: endpoint.application_id },
    });
  });
  deps.webhookWork?.notify();
}
