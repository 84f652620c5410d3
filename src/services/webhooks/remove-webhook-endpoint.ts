import { deleteWebhookEndpoint } from '../../store/repositories/webhook-endpoints.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange } from '../tenancy/announce-tenancy-change.js';
import { type EndpointRef, endpointNotFound, requireWebhookEndpoint } from './list-webhook-endpoints.js';

/** Removes an endpoint; its pending deliveries go with it and are never sent. */
export async function removeWebhookEndpoint(deps: ServiceDeps, input: EndpointRef): Promise<void> {
  const applicationId = await inTransaction(deps.store.db, async (trx) => {
    const endpoint = await requireWebhookEndpoint(trx, input, deps.clock());
    // Gone meanwhile (removed by a concurrent call): not found, as if it had been gone before.
    if (!(await deleteWebhookEndpoint(trx, endpoint.id))) throw endpointNotFound(input);
    await recordAudit(trx, deps, {
      action: 'webhook_endpoint.removed',
      targetType: 'webhook_endpoint',
      targetId: endpoint.id,
      details: { applicationId: endpoint.application_id, origin: new URL(endpoint.url).origin },
    });
    return endpoint.application_id;
  });
  await announceTenancyChange(deps, { applicationId });
}
