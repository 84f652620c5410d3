import { AppError } from '../../errors.js';
import { deleteWebhookEndpoint, listWebhookEndpoints } from '../../store/repositories/webhook-endpoints.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange } from '../tenancy/announce-tenancy-change.js';

/** Removes an endpoint; its pending deliveries go with it and are never sent. */
export async function removeWebhookEndpoint(deps: ServiceDeps, input: { endpointId: string }): Promise<void> {
  const applicationId = await inTransaction(deps.store.db, async (trx) => {
    const [endpoint] = await listWebhookEndpoints(trx, { id: input.endpointId, now: deps.clock() });
    if (!endpoint || !(await deleteWebhookEndpoint(trx, input.endpointId))) throw notFound(input.endpointId);
    await recordAudit(trx, deps, {
      action: 'webhook_endpoint.removed',
      targetType: 'webhook_endpoint',
      targetId: input.endpointId,
      details: { applicationId: endpoint.application_id, origin: new URL(endpoint.url).origin },
    });
    return endpoint.application_id;
  });
  await announceTenancyChange(deps, { applicationId });
}

export function notFound(endpointId: string): AppError {
  return new AppError('NOT_FOUND', {
    field: 'endpoint',
    detail: `no webhook endpoint with the id ${JSON.stringify(endpointId.slice(0, 100))}; \`rpa webhooks list\` shows them`,
  });
}
