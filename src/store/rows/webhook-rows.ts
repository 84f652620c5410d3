import type { Selectable } from 'kysely';
import type { WebhookDeliveryStatus } from '../../domain/webhook-delivery-status.js';

// Row types of webhooks: endpoints, subscriptions, secrets, the outbox and deliveries (conventions in ../schema.ts).

export interface WebhookEndpointsTable {
  id: string;
  application_id: string;
  url: string;
  created_at: number;
  disabled_at: number | null;
  disabled_reason: string | null;
  managed_by: string | null;
  /** The `rotate:` label of a configuration file: a different one rotates the signing secret. */
  rotate_label: string | null;
}

export interface WebhookSubscriptionsTable {
  endpoint_id: string;
  event_type: string;
}

export interface WebhookSecretsTable {
  id: string;
  endpoint_id: string;
  /** `whsec_...`: kept in the clear because an HMAC is computed with the key itself. */
  secret: string;
  created_at: number;
  /** End of a rotated-out secret's grace period; null for the current one. */
  expires_at: number | null;
}

/** The outbox: an event and its body, written with the change it reports. */
export interface WebhookMessagesTable {
  id: string;
  application_id: string;
  event_type: string;
  payload: string;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  message_id: string;
  endpoint_id: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_attempt_at: number | null;
  /** HTTP status of the last attempt; null when it got no answer. */
  last_status: number | null;
  /** Why the last attempt failed, in a few words (`timeout`, `ECONNREFUSED`, `HTTP 503`). */
  last_error: string | null;
  finished_at: number | null;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
