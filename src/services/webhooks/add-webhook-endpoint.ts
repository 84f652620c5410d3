import { randomUUID } from 'node:crypto';
import {
  isWebhookEventType,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '../../domain/webhook-event.js';
import { newWebhookSecret } from '../../domain/webhook-signature.js';
import { AppError } from '../../errors.js';
import { insertWebhookEndpoint, listWebhookEndpoints } from '../../store/repositories/webhook-endpoints.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange } from '../tenancy/announce-tenancy-change.js';
import { requireActiveApplication } from '../tenancy/require-active-application.js';
import { checkWebhookUrl } from './check-webhook-url.js';
import { type WebhookEndpoint, webhookEndpointView } from './webhook-endpoint-view.js';

/** Each event is written once per subscribed endpoint, in the transaction of its change: a bound. */
const MAX_WEBHOOK_ENDPOINTS = 10;

/**
 * Registers an endpoint for an application's privacy request events and returns its signing
 * secret, the only time it is shown. Every event type by default.
 */
export async function addWebhookEndpoint(
  deps: ServiceDeps,
  input: {
    applicationId: string;
    /** As given, or as checkWebhookUrl answered it: checked beforehand, its DNS lookup holds no transaction open. */
    url: string | URL;
    eventTypes?: readonly string[];
  },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = input.url instanceof URL ? input.url : await checkWebhookUrl(deps, input.url);
  const eventTypes = [...new Set(input.eventTypes ?? WEBHOOK_EVENT_TYPES)];
  const unknown = eventTypes.filter((t) => !isWebhookEventType(t));
  if (unknown.length > 0 || eventTypes.length === 0)
    throw new AppError('INVALID_REQUEST', {
      field: 'events',
      detail: `${unknown.length > 0 ? `unknown event ${unknown.map((t) => JSON.stringify(t.slice(0, 100))).join(', ')}; ` : 'no events named; '}expected some of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    });
  const id = randomUUID();
  const secret = newWebhookSecret();
  const now = deps.clock();
  await inTransaction(deps.store.db, async (trx) => {
    await requireActiveApplication(trx, input.applicationId);
    const existing = await listWebhookEndpoints(trx, { applicationId: input.applicationId, now });
    if (existing.length >= MAX_WEBHOOK_ENDPOINTS)
      throw new AppError('CONFLICT', {
        detail: `the application already has ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; remove one first`,
      });
    await insertWebhookEndpoint(trx, {
      id,
      applicationId: input.applicationId,
      url: url.href,
      createdAt: now,
      eventTypes: eventTypes as WebhookEventType[],
      secret: { id: randomUUID(), value: secret },
    });
    await recordAudit(trx, deps, {
      action: 'webhook_endpoint.created',
      targetType: 'webhook_endpoint',
      targetId: id,
      // The origin only: a receiver's path or query may carry a token of its own.
      details: { applicationId: input.applicationId, origin: url.origin, eventTypes },
    });
  });
  // Instances that skip the event fan-out for applications without endpoints must stop skipping.
  await announceTenancyChange(deps, { applicationId: input.applicationId });
  const [row] = await listWebhookEndpoints(deps.store.db, { id, now });
  if (!row) throw new AppError('NOT_FOUND', { detail: 'the endpoint was removed while it was being added' });
  return { endpoint: webhookEndpointView(row), secret };
}
