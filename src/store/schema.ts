import type { Selectable } from 'kysely';
import type { ApplicationStatus } from '../domain/application.js';
import type { Environment } from '../domain/environment.js';
import type { PasskeyApi, PasskeyStatus } from '../domain/passkey.js';
import type { PrivacyRequestStatus, PrivacyRequestType } from '../domain/privacy-request.js';
import type { WebhookDeliveryStatus } from '../domain/webhook-delivery-status.js';

/**
 * Row types of every table. Times are epoch milliseconds (bigint on PostgreSQL, read back as
 * numbers), JSON documents are stored as text so both databases hold the same bytes.
 */

export interface ClientsTable {
  id: string;
  environment: Environment;
  name: string;
  created_at: number;
}

export interface ApplicationsTable {
  id: string;
  environment: Environment;
  /** Public OAuth client_id. */
  client_id: string;
  name: string;
  status: ApplicationStatus;
  created_at: number;
  revoked_at: number | null;
}

export interface ApplicationSecretsTable {
  id: string;
  application_id: string;
  /** SHA-256 of the secret (256 random bits; see domain/credentials.ts). */
  secret_hash: string;
  created_at: number;
  retired_at: number | null;
}

export interface ApplicationGrantsTable {
  application_id: string;
  client_id: string;
}

export interface PasskeysTable {
  id: string;
  environment: Environment;
  application_id: string;
  api: PasskeyApi;
  /** SHA-256 of the passkey; the passkey itself is shown once. */
  key_hash: string;
  /** Last characters of the passkey, so an operator can tell keys apart. */
  key_hint: string;
  rate_limit_per_minute: number;
  quota_per_day: number;
  status: PasskeyStatus;
  /** 1 for the passkey charged by token calls that name none. */
  is_default: number;
  created_at: number;
  revoked_at: number | null;
}

export interface TokenSigningKeysTable {
  id: string;
  /** 32 random bytes, base64url: the HMAC-SHA256 key of the access tokens signed with it. */
  key_material: string;
  created_at: number;
  /** Null while the key signs; otherwise the time after which its tokens are refused. */
  retire_at: number | null;
}

/** An RFC 7009 revocation of one token, kept until the token's own expiry. */
export interface TokenDenialsTable {
  token_id: string;
  application_id: string;
  expires_at: number;
}

export interface ReviewsTable {
  id: string;
  environment: Environment;
  client_id: string;
  rating: number | null;
  title: string | null;
  text: string | null;
  /** Profile fields of the review's author: personal data, erased by forget requests. */
  author_id: string | null;
  author_name: string | null;
  author_email: string | null;
  author_phone: string | null;
  author_instagram: string | null;
  author_facebook: string | null;
  author_twitter: string | null;
  author_youtube_channel: string | null;
  author_youtube_username: string | null;
  author_vimeo: string | null;
  submitted_at: number;
  created_at: number;
}

/** Keyed hashes of a review author's normalized identifiers, for privacy look-ups. */
export interface ReviewIdentifiersTable {
  review_id: string;
  environment: Environment;
  client_id: string;
  kind: string;
  value_hash: string;
}

export interface ResponseAuthorsTable {
  id: string;
  environment: Environment;
  application_id: string;
  name: string;
  created_at: number;
}

export interface ClientResponsesTable {
  id: string;
  environment: Environment;
  review_id: string;
  /** The client instance the review belongs to and that answers it. */
  client_id: string;
  application_id: string;
  author_id: string;
  department: string;
  response: string;
  response_hash: string;
  response_by: string | null;
  response_source: string;
  created_at: number;
  updated_at: number;
}

export interface InstanceSettingsTable {
  key: string;
  value: string;
}

/** Fixed-window counters of passkey limits and failed logins when no Redis is configured. */
export interface LimitCountersTable {
  key: string;
  hits: number;
  /** Epoch ms at which the window ends. */
  window_end: number;
}

/** A forget or access request; never holds a raw identifier of its subject. */
export interface PrivacyRequestsTable {
  id: string;
  environment: Environment;
  application_id: string;
  type: PrivacyRequestType;
  status: PrivacyRequestStatus;
  submitted_at: number;
  due_at: number;
  started_at: number | null;
  completed_at: number | null;
  /** JSON: counts per client name and kind (see domain/privacy-receipt.ts). */
  receipt: string | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  /** Scheme and host the request was filed on, for the links of its events; null when unknown. */
  base_url: string | null;
}

export interface PrivacyRequestClientsTable {
  request_id: string;
  client_id: string;
  client_name: string;
}

/** Keyed hashes of a request's identifiers; the masked display value is dropped after erasure. */
export interface PrivacyRequestIdentifiersTable {
  request_id: string;
  environment: Environment;
  kind: string;
  value_hash: string;
  masked_value: string | null;
}

/** One row per (client, identifier) of a pending request: the pending rule as a unique key. */
export interface PrivacyPendingKeysTable {
  environment: Environment;
  client_id: string;
  kind: string;
  value_hash: string;
  request_id: string;
}

/** An access request's export section for one client instance (personal data). */
export interface PrivacyExportsTable {
  request_id: string;
  client_id: string;
  client_name: string;
  content: string;
  created_at: number;
  expires_at: number;
}

/** A review an export section holds (ids only), so erasing the review removes the section. */
export interface PrivacyExportReviewsTable {
  request_id: string;
  client_id: string;
  review_id: string;
}

/** A keyed hash of a forgotten person's identifier in one client: imports refuse it. */
export interface PrivacySuppressionsTable {
  environment: Environment;
  client_id: string;
  kind: string;
  value_hash: string;
  /** The forget request that suppressed it (kept after the request itself is purged). */
  subject_id: string;
  created_at: number;
}

/** An operator lifting the suppression of one person in one client. */
export interface PrivacySuppressionLiftsTable {
  id: string;
  environment: Environment;
  client_id: string;
  client_name: string;
  subject_id: string;
  identifiers: number;
  reason: string;
  lifted_by: string;
  lifted_at: number;
}

/** A rewrite of the tables that held erased data. */
export interface PrivacyCompactionsTable {
  id: string;
  trigger: string;
  /** Comma-separated table names. */
  tables: string;
  started_at: number;
  finished_at: number | null;
  bytes_before: number | null;
  bytes_after: number | null;
  error: string | null;
}

/** One administrative action or privacy request state change; no personal data (see the migration). */
export interface AuditEventsTable {
  id: string;
  occurred_at: number;
  /** `cli:<user>`, `application:<id>`, `worker:<owner>` or `housekeeping`. */
  actor: string;
  /** Dotted and stable, e.g. `application.revoked`, `privacy_request.completed`. */
  action: string;
  target_type: string;
  target_id: string;
  /** JSON object of ids, counts and settings. */
  details: string;
}

export interface WebhookEndpointsTable {
  id: string;
  application_id: string;
  url: string;
  created_at: number;
  disabled_at: number | null;
  disabled_reason: string | null;
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

export interface Database {
  clients: ClientsTable;
  applications: ApplicationsTable;
  application_secrets: ApplicationSecretsTable;
  application_grants: ApplicationGrantsTable;
  passkeys: PasskeysTable;
  token_signing_keys: TokenSigningKeysTable;
  token_denials: TokenDenialsTable;
  reviews: ReviewsTable;
  review_identifiers: ReviewIdentifiersTable;
  response_authors: ResponseAuthorsTable;
  client_responses: ClientResponsesTable;
  instance_settings: InstanceSettingsTable;
  privacy_requests: PrivacyRequestsTable;
  privacy_request_clients: PrivacyRequestClientsTable;
  privacy_request_identifiers: PrivacyRequestIdentifiersTable;
  privacy_pending_keys: PrivacyPendingKeysTable;
  privacy_exports: PrivacyExportsTable;
  limit_counters: LimitCountersTable;
  privacy_suppressions: PrivacySuppressionsTable;
  privacy_suppression_lifts: PrivacySuppressionLiftsTable;
  privacy_compactions: PrivacyCompactionsTable;
  privacy_export_reviews: PrivacyExportReviewsTable;
  audit_events: AuditEventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_secrets: WebhookSecretsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type ClientRow = Selectable<ClientsTable>;
export type ApplicationRow = Selectable<ApplicationsTable>;
export type PasskeyRow = Selectable<PasskeysTable>;
export type ReviewRow = Selectable<ReviewsTable>;
export type ClientResponseRow = Selectable<ClientResponsesTable>;
export type PrivacyRequestRow = Selectable<PrivacyRequestsTable>;
export type AuditEventRow = Selectable<AuditEventsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
