import { mentionsSecretCredential } from '../../domain/credentials.js';
import type { Environment } from '../../domain/environment.js';
import { IDENTIFIER_KINDS, type IdentifierKind } from '../../domain/identifiers.js';
import {
  decodeListCursor,
  encodeListCursor,
  type IdentifierFilter,
  type ListCursor,
  listCursorKey,
} from '../../domain/list-cursor.js';
import type {
  PrivacyRequest,
  PrivacyRequestStatus,
  PrivacyRequestType,
} from '../../domain/privacy-request.js';
import { privacySubject } from '../../domain/privacy-subject.js';
import { AppError } from '../../errors.js';
import {
  findRequestDetails,
  listPrivacyRequests as selectPrivacyRequests,
  toPrivacyRequest,
} from '../../store/repositories/privacy-requests.js';
import type { ServiceDeps } from '../deps.js';

const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;

export interface ListPrivacyRequestsInput {
  readonly type: PrivacyRequestType;
  readonly environment: Environment;
  readonly applicationId: string;
  readonly id?: string;
  readonly status?: PrivacyRequestStatus;
  readonly clientName?: string;
  readonly submittedAfter?: number;
  readonly completedAfter?: number;
  /** At most one identifier, matched through its keyed hash. */
  readonly identifiers?: Partial<Record<IdentifierKind, string>>;
  readonly limit?: number;
  readonly cursor?: string;
}

export interface PrivacyRequestPage {
  readonly requests: readonly PrivacyRequest[];
  /** Token of the next page; null on the last one. */
  readonly nextCursor: string | null;
  /**
   * Token of this page, when it has a position or an identifier filter (null otherwise): links
   * name the page with it instead of the identifier.
   */
  readonly selfCursor: string | null;
}

const invalidCursor = (detail: string) =>
  new AppError('INVALID_QUERY_PARAMETER', { field: 'cursor', detail, source: { parameter: 'cursor' } });

const DAY_MS = 86_400_000;

/**
 * The calling application's requests of one type, newest first, for PRIVACY_LIST_DAYS
 * (the public system lists requests for 30 days and keeps them 90).
 */
export async function listPrivacyRequests(
  deps: ServiceDeps,
  input: ListPrivacyRequestsInput,
): Promise<PrivacyRequestPage> {
  if (input.clientName !== undefined && mentionsSecretCredential(input.clientName)) {
    // Filters are repeated in the page links; a secret put there is refused, never repeated.
    throw new AppError('INVALID_QUERY_PARAMETER', {
      field: 'clientName',
      detail: 'that is a secret (a passkey, client secret or token), not a client name',
      source: { parameter: 'clientName' },
    });
  }
  const cursorKey = listCursorKey(deps.identifierKey, input.applicationId);
  const { identifier, cursor } = pagePosition(cursorKey, input.cursor, identifierFilter(deps, input));
  const before = cursor?.position ?? undefined;
  const limit = Math.min(input.limit ?? DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT);
  const now = deps.clock();
  const rows = await selectPrivacyRequests(deps.store.db, {
    environment: input.environment,
    applicationId: input.applicationId,
    type: input.type,
    // The public system lists requests for 30 days after completion (PRIVACY_LIST_DAYS); one still
    // pending is owed an answer and stays listed however old it is.
    completedSince: now - deps.config.privacy.listDays * DAY_MS,
    ...(input.id !== undefined ? { id: input.id } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.clientName !== undefined ? { clientName: input.clientName } : {}),
    ...(input.submittedAfter !== undefined ? { submittedAfter: input.submittedAfter } : {}),
    ...(input.completedAfter !== undefined ? { completedAfter: input.completedAfter } : {}),
    ...(identifier ? { identifier } : {}),
    ...(before ? { before } : {}),
    // One more than asked tells whether another page follows.
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const details = await findRequestDetails(
    deps.store.db,
    page.map((r) => r.id),
  );
  const requests = page.map((row) => {
    const expiry = details.exportExpiry.get(row.id) ?? null;
    return toPrivacyRequest(row, {
      clients: details.clients.get(row.id) ?? [],
      identifiers: details.identifiers.get(row.id) ?? [],
      exportExpiresAt: expiry !== null && expiry > now ? expiry : null,
    });
  });
  const last = page[page.length - 1];
  const tokenOf = (position: ListCursor['position']) =>
    encodeListCursor(cursorKey, { position, identifier: identifier ?? null });
  return {
    requests,
    nextCursor: rows.length > limit && last ? tokenOf({ at: last.submitted_at, id: last.id }) : null,
    selfCursor: before || identifier ? tokenOf(before ?? null) : null,
  };
}

/** The identifier the list is filtered by, as its keyed hash; at most one may be given. */
function identifierFilter(deps: ServiceDeps, input: ListPrivacyRequestsInput): IdentifierFilter | undefined {
  const named = IDENTIFIER_KINDS.filter((k) => input.identifiers?.[k] !== undefined);
  if (named.length > 1) {
    throw new AppError('INVALID_QUERY_PARAMETER', {
      field: named[1],
      detail: `filter by at most one identifier; got ${named.join(', ')}`,
      source: { parameter: named[1] },
    });
  }
  if (named.length === 0) return undefined;
  const kind = named[0] as IdentifierKind;
  try {
    const hash = privacySubject(deps.identifierKey, { [kind]: input.identifiers?.[kind] })[0]?.hash ?? '';
    return { kind, hash };
  } catch (err) {
    if (err instanceof AppError) {
      throw new AppError('INVALID_QUERY_PARAMETER', {
        field: kind,
        detail: err.detail,
        source: { parameter: kind },
      });
    }
    throw err;
  }
}

/** The page a cursor points at, and the identifier filter of its list (kept by the cursor). */
function pagePosition(
  key: Buffer,
  token: string | undefined,
  filter: IdentifierFilter | undefined,
): { identifier: IdentifierFilter | undefined; cursor: ListCursor | null } {
  if (token === undefined) return { identifier: filter, cursor: null };
  const cursor = decodeListCursor(key, token);
  if (!cursor) throw invalidCursor('cursor is not a page token issued by this server');
  // A cursor keeps its list's identifier filter, so following a link never needs the value.
  if (!cursor.identifier) return { identifier: filter, cursor };
  if (filter && (filter.kind !== cursor.identifier.kind || filter.hash !== cursor.identifier.hash)) {
    throw invalidCursor('cursor belongs to a list filtered by another identifier');
  }
  return { identifier: cursor.identifier, cursor };
}
