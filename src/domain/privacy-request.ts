import type { Environment } from './environment.js';
import type { IdentifierKind } from './identifiers.js';
import type { Receipt } from './privacy-receipt.js';

export type PrivacyRequestType = 'forget' | 'access';
/** The public system also knows ABORTED, deprecated there and never used here (docs/interface.md §10.3). */
export type PrivacyRequestStatus = 'PENDING' | 'COMPLETED';

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
