import type { Selectable } from 'kysely';
import type { Environment } from '../../domain/environment.js';
import type { PrivacyRequestStatus, PrivacyRequestType } from '../../domain/privacy-request.js';

// Row types of the Privacy API: requests, their clients, identifiers and pending keys, exports,
// suppressions and their lifts, compactions (conventions in ../schema.ts).

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
  /** W3C traceparent of the traced call that filed it, continued by the worker; null when untraced. */
  trace_parent: string | null;
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
  /** Empty: the reviews are rows of privacy_export_reviews (versions before kept a document here). */
  content: string;
  created_at: number;
  expires_at: number;
}

/** A review an export section holds (ids only), so erasing the review removes the section. */
export interface PrivacyExportReviewsTable {
  request_id: string;
  client_id: string;
  review_id: string;
  /** What the export says of the review (JSON); nullable only because the column was added late. */
  content: string | null;
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

export type PrivacyRequestRow = Selectable<PrivacyRequestsTable>;
