import type { WebhookDeliveryStatus } from '../../domain/webhook-delivery-status.js';
import {
  type DeliveryFilter,
  listWebhookDeliveries as listRows,
} from '../../store/repositories/webhook-deliveries.js';
import type { ServiceDeps } from '../deps.js';

export const MAX_DELIVERY_LIST = 1000;

/** A delivery as operators see it: the event, the endpoint, and how its attempts went. */
export interface WebhookDelivery {
  readonly id: string;
  readonly messageId: string;
  readonly eventType: string;
  readonly applicationId: string;
  readonly endpointId: string;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly createdAt: number;
  readonly lastAttemptAt: number | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  /** When the next attempt is due (pending only). */
  readonly nextAttemptAt: number | null;
  readonly finishedAt: number | null;
}

/** Deliveries newest event first, at most MAX_DELIVERY_LIST, by endpoint, application, status or event. */
export async function listWebhookDeliveries(
  deps: ServiceDeps,
  filter: DeliveryFilter,
): Promise<WebhookDelivery[]> {
  const rows = await listRows(deps.store.db, { ...filter, limit: Math.min(filter.limit, MAX_DELIVERY_LIST) });
  const num = (v: number | null) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    id: r.id,
    messageId: r.message_id,
    eventType: r.eventType,
    applicationId: r.applicationId,
    endpointId: r.endpoint_id,
    status: r.status,
    attempts: Number(r.attempts),
    createdAt: Number(r.createdAt),
    lastAttemptAt: num(r.last_attempt_at),
    lastStatus: num(r.last_status),
    lastError: r.last_error,
    nextAttemptAt: r.status === 'pending' ? Number(r.next_attempt_at) : null,
    finishedAt: num(r.finished_at),
  }));
}
