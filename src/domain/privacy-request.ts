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

const COLLECTION: Record<PrivacyRequestType, string> = {
  forget: 'forgetRequests',
  access: 'accessRequests',
};

/** Path of a request collection, e.g. /privacy/v1/forgetRequests (docs/interface.md §4). */
export function privacyCollectionPath(type: PrivacyRequestType): string {
  return `/privacy/v1/${COLLECTION[type]}`;
}

/** Links of a request on the host at `baseUrl`: the request, and its export once there is one. */
export function privacyRequestLinks(
  baseUrl: string,
  request: { type: PrivacyRequestType; id: string; exportAvailable: boolean },
): { self: string; export?: string } {
  const self = `${baseUrl}${privacyCollectionPath(request.type)}/${request.id}`;
  return { self, ...(request.exportAvailable ? { export: `${self}/export` } : {}) };
}
