import { setWebhookEndpointDisabled } from '../../store/repositories/webhook-endpoints.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { type EndpointRef, requireWebhookEndpoint } from './list-webhook-endpoints.js';

/**
 * Resumes deliveries to an endpoint that answered 410 Gone: its deliveries still pending go out
 * again (those that ended with the 410 stay failed).
 */
export async function enableWebhookEndpoint(deps: ServiceDeps, input: EndpointRef): Promise<void> {
  await inTransaction(deps.store.db, async (trx) => {
    const endpoint = await requireWebhookEndpoint(trx, input, deps.clock());
    if (endpoint.disabled_at === null) return;
    await setWebhookEndpointDisabled(trx, endpoint.id, null);
    await recordAudit(trx, deps, {
      action: 'webhook_endpoint.enabled',
      targetType: 'webhook_endpoint',
      targetId: endpoint.id,
      details: { applicationId: endpoint.application_id },
    });
  });
  deps.webhookWork?.notify();
}
