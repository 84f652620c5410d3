import type { Environment } from '../../domain/environment.js';
import type { WebhookDeliveryStatus } from '../../domain/webhook-delivery-status.js';
import {
  type DeliveryListing,
  listWebhookDeliveries as listRows,
} from '../../store/repositories/webhook-deliveries.js';
import type { ServiceDeps } from '../deps.js';
import { type Page, type PageRequest, readPage } from '../paging/read-page.js';
import { resolveApplication } from '../tenancy/resolve-application.js';
import { findWebhookEndpoint } from './list-webhook-endpoints.js';

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

export interface DeliveryQuery extends PageRequest {
  readonly environment: Environment;
  /** The application, by id or client id. */
  readonly app?: string | undefined;
  readonly endpointId?: string | undefined;
  readonly status?: WebhookDeliveryStatus | undefined;
  readonly messageId?: string | undefined;
}

/**
 * One environment's deliveries, newest event first, a page at a time. An application or endpoint
 * named as a filter must be of this environment (not found otherwise), like every other operation.
 */
export async function pageWebhookDeliveries(
  deps: ServiceDeps,
  query: DeliveryQuery,
): Promise<Page<WebhookDelivery>> {
  const { environment } = query;
  const applicationId =
    query.app === undefined ? undefined : (await resolveApplication(deps, query.app, environment)).id;
  if (query.endpointId !== undefined)
    await findWebhookEndpoint(deps, { environment, endpointId: query.endpointId });
  const filter = {
    environment,
    ...(applicationId !== undefined ? { applicationId } : {}),
    ...(query.endpointId !== undefined ? { endpointId: query.endpointId } : {}),
    ...(query.status !== undefined ? { status: query.status } : {}),
    ...(query.messageId !== undefined ? { messageId: query.messageId } : {}),
  };
  return readPage(
    query,
    async (after, limit) => (await listRows(deps.store.db, { ...filter, after, limit })).map(toDelivery),
    (d) => ({ at: d.createdAt, id: d.id }),
  );
}

function toDelivery(r: DeliveryListing): WebhookDelivery {
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
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
  };
}
