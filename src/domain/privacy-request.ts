import type { Environment, PrivacyRequestStatus, PrivacyRequestType } from '../store/schema.js';
import { IDENTIFIER_KINDS, type IdentifierKind } from './identifiers.js';
import { parseReceipt, type Receipt } from './privacy-receipt.js';

export type { PrivacyRequestStatus, PrivacyRequestType };

/** A privacy request as services return it; the HTTP layer chooses its wire shape. */
export interface PrivacyRequest {
  readonly id: string;
  readonly type: PrivacyRequestType;
  readonly status: PrivacyRequestStatus;
  readonly environment: Environment;
  readonly applicationId: string;
  readonly submittedAt: number;
  readonly dueAt: number;
  readonly startedAt: number | null;
  readonly completedAt: number | null;
  readonly clientNames: readonly string[];
  /** Masked values are null once the subject has been erased. */
  readonly identifiers: readonly { kind: IdentifierKind; masked: string | null }[];
  readonly receipt: Receipt | null;
  /** Access requests: until when the export can be downloaded; null when none is available. */
  readonly exportExpiresAt: number | null;
}

/** Assembles the service view from a stored row and its details. */
export function toPrivacyRequest(
  row: {
    id: string;
    type: PrivacyRequestType;
    status: PrivacyRequestStatus;
    environment: Environment;
    application_id: string;
    submitted_at: number;
    due_at: number;
    started_at: number | null;
    completed_at: number | null;
    receipt: string | null;
  },
  details: {
    clients: readonly { name: string }[];
    identifiers: readonly { kind: string; masked_value: string | null }[];
    exportExpiresAt: number | null;
  },
): PrivacyRequest {
  const order = (kind: string) => IDENTIFIER_KINDS.indexOf(kind as IdentifierKind);
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    environment: row.environment,
    applicationId: row.application_id,
    submittedAt: row.submitted_at,
    dueAt: row.due_at,
    startedAt: row.started_at,
    completedAt: row.completed_at,
    clientNames: details.clients.map((c) => c.name).sort(),
    identifiers: [...details.identifiers]
      .sort((a, b) => order(a.kind) - order(b.kind))
      .map((i) => ({ kind: i.kind as IdentifierKind, masked: i.masked_value })),
    receipt: row.status === 'COMPLETED' ? parseReceipt(row.receipt) : null,
    exportExpiresAt: details.exportExpiresAt,
  };
}
