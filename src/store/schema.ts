import type { AdminTokensTable, IdempotencyKeysTable } from './rows/admin-rows.js';
import type { AuditEventsTable } from './rows/audit-rows.js';
import type {
  ClientResponsesTable,
  ResponseAuthorsTable,
  ReviewIdentifiersTable,
  ReviewsTable,
} from './rows/content-rows.js';
import type {
  PrivacyCompactionsTable,
  PrivacyExportReviewsTable,
  PrivacyExportsTable,
  PrivacyPendingKeysTable,
  PrivacyRequestClientsTable,
  PrivacyRequestIdentifiersTable,
  PrivacyRequestsTable,
  PrivacySuppressionLiftsTable,
  PrivacySuppressionsTable,
} from './rows/privacy-rows.js';
import type {
  ApplicationGrantsTable,
  ApplicationSecretsTable,
  ApplicationsTable,
  ClientsTable,
  InstanceSettingsTable,
  LimitCountersTable,
  PasskeysTable,
  TenancyRevisionsTable,
  TokenDenialsTable,
  TokenSigningKeysTable,
} from './rows/tenancy-rows.js';
import type {
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookMessagesTable,
  WebhookSecretsTable,
  WebhookSubscriptionsTable,
} from './rows/webhook-rows.js';

export type { AdminTokenRow } from './rows/admin-rows.js';
export type { AuditEventRow } from './rows/audit-rows.js';
export type {
  ClientResponseRow,
  ResponseAuthorsTable,
  ReviewRow,
  ReviewsTable,
} from './rows/content-rows.js';
export type {
  PrivacyCompactionsTable,
  PrivacyRequestIdentifiersTable,
  PrivacyRequestRow,
} from './rows/privacy-rows.js';
export type {
  ApplicationRow,
  ClientRow,
  PasskeyRow,
  TokenDenialsTable,
  TokenSigningKeysTable,
} from './rows/tenancy-rows.js';
export type { WebhookDeliveryRow, WebhookEndpointRow } from './rows/webhook-rows.js';

/**
 * Row types of every table. Times are epoch milliseconds (bigint on PostgreSQL, read back as
 * numbers), JSON documents are stored as text so both databases hold the same bytes.
 */

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
  admin_tokens: AdminTokensTable;
  idempotency_keys: IdempotencyKeysTable;
  tenancy_revisions: TenancyRevisionsTable;
}
