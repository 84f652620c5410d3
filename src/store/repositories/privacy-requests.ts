import { type Kysely, sql } from 'kysely';
import type { Environment } from '../../domain/environment.js';
import { IDENTIFIER_KINDS, type IdentifierKind } from '../../domain/identifiers.js';
import type { PagePosition } from '../../domain/page-cursor.js';
import { parseReceipt } from '../../domain/privacy-receipt.js';
import type {
  PrivacyRequest,
  PrivacyRequestStatus,
  PrivacyRequestType,
} from '../../domain/privacy-request.js';
import { afterPosition, type PageOrder } from '../keyset-page.js';
import type { Database, PrivacyRequestIdentifiersTable, PrivacyRequestRow } from '../schema.js';

/** Assembles the service view of a request from its row and its details. */
export function toPrivacyRequest(
  row: PrivacyRequestRow,
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

export interface RequestIdentifierRow {
  readonly kind: string;
  readonly hash: string;
}

export async function findPrivacyRequest(
  db: Kysely<Database>,
  where: { id: string; environment: Environment; applicationId: string; type: PrivacyRequestType },
): Promise<PrivacyRequestRow | undefined> {
  return db
    .selectFrom('privacy_requests')
    .selectAll()
    .where('id', '=', where.id)
    .where('environment', '=', where.environment)
    .where('application_id', '=', where.applicationId)
    .where('type', '=', where.type)
    .executeTakeFirst();
}

export interface PrivacyRequestFilter {
  readonly environment: Environment;
  readonly applicationId: string;
  readonly type: PrivacyRequestType;
  /** Completed requests are listed while completed at or after this; pending ones always are. */
  readonly completedSince: number;
  readonly id?: string;
  readonly status?: PrivacyRequestStatus;
  readonly clientName?: string;
  readonly submittedAfter?: number;
  readonly completedAfter?: number;
  readonly identifier?: RequestIdentifierRow;
  /** Position of the last item of the previous page (descending order). */
  readonly before?: PagePosition;
  readonly limit: number;
}

/** Newest first, by (submitted_at, id). */
export async function listPrivacyRequests(
  db: Kysely<Database>,
  f: PrivacyRequestFilter,
): Promise<PrivacyRequestRow[]> {
  let q = db
    .selectFrom('privacy_requests as r')
    .selectAll('r')
    .where('r.application_id', '=', f.applicationId)
    .where('r.type', '=', f.type)
    .where('r.environment', '=', f.environment)
    .where((eb) => eb.or([eb('r.status', '=', 'PENDING'), eb('r.completed_at', '>=', f.completedSince)]));
  if (f.id !== undefined) q = q.where('r.id', '=', f.id);
  if (f.status !== undefined) q = q.where('r.status', '=', f.status);
  if (f.submittedAfter !== undefined) q = q.where('r.submitted_at', '>', f.submittedAfter);
  if (f.completedAfter !== undefined) q = q.where('r.completed_at', '>', f.completedAfter);
  const { clientName, identifier, before } = f;
  if (clientName !== undefined) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('privacy_request_clients as c')
          .select(sql.lit(1).as('one'))
          .whereRef('c.request_id', '=', 'r.id')
          .where('c.client_name', '=', clientName),
      ),
    );
  }
  if (identifier !== undefined) {
    // Driven by the identifier index: the few requests naming the subject, not every request.
    q = q.where('r.id', 'in', (eb) =>
      eb
        .selectFrom('privacy_request_identifiers as i')
        .select('i.request_id')
        .where('i.environment', '=', f.environment)
        .where('i.kind', '=', identifier.kind)
        .where('i.value_hash', '=', identifier.hash),
    );
  }
  if (before !== undefined) q = q.where(afterPosition('r.submitted_at', 'r.id', before, 'desc'));
  return q.orderBy('r.submitted_at', 'desc').orderBy('r.id', 'desc').limit(f.limit).execute();
}

/** What the admin API filters an environment's requests by; each filter is optional. */
export interface EnvironmentRequestFilter {
  readonly environment: Environment;
  readonly type?: PrivacyRequestType | undefined;
  readonly status?: PrivacyRequestStatus | undefined;
  readonly applicationId?: string | undefined;
}

/** The columns an operator's overview shows: none of them names or hashes the end user. */
export type RequestOverviewRow = Pick<
  PrivacyRequestRow,
  'id' | 'type' | 'status' | 'application_id' | 'submitted_at' | 'due_at' | 'completed_at'
>;

/** A page of the requests of every application of one environment, by (submitted_at, id). */
export async function pageEnvironmentPrivacyRequests(
  db: Kysely<Database>,
  f: EnvironmentRequestFilter,
  after: PagePosition | null,
  limit: number,
  order: PageOrder = 'asc',
): Promise<RequestOverviewRow[]> {
  let q = db
    .selectFrom('privacy_requests')
    .select(['id', 'type', 'status', 'application_id', 'submitted_at', 'due_at', 'completed_at'])
    .where('environment', '=', f.environment);
  if (f.type !== undefined) q = q.where('type', '=', f.type);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.applicationId !== undefined) q = q.where('application_id', '=', f.applicationId);
  if (after) q = q.where(afterPosition('submitted_at', 'id', after, order));
  return q.orderBy('submitted_at', order).orderBy('id', order).limit(limit).execute();
}

export interface RequestDetails {
  readonly clients: Map<string, { id: string; name: string }[]>;
  readonly identifiers: Map<
    string,
    Pick<PrivacyRequestIdentifiersTable, 'kind' | 'value_hash' | 'masked_value'>[]
  >;
  /** Latest export expiry per access request that still has export content. */
  readonly exportExpiry: Map<string, number>;
}

/** The clients each request names, ordered by name. */
export async function findRequestClients(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  const byRequest = new Map<string, { id: string; name: string }[]>();
  if (ids.length === 0) return byRequest;
  const rows = await db
    .selectFrom('privacy_request_clients')
    .select(['request_id', 'client_id', 'client_name'])
    .where('request_id', 'in', ids)
    .orderBy('client_name')
    .execute();
  for (const c of rows) {
    const list = byRequest.get(c.request_id) ?? [];
    list.push({ id: c.client_id, name: c.client_name });
    byRequest.set(c.request_id, list);
  }
  return byRequest;
}

/** Clients, identifiers and export availability of several requests, in three queries. */
export async function findRequestDetails(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<RequestDetails> {
  const details: RequestDetails = {
    clients: await findRequestClients(db, ids),
    identifiers: new Map(),
    exportExpiry: new Map(),
  };
  if (ids.length === 0) return details;
  const identifiers = await db
    .selectFrom('privacy_request_identifiers')
    .select(['request_id', 'kind', 'value_hash', 'masked_value'])
    .where('request_id', 'in', ids)
    .execute();
  for (const i of identifiers) {
    const list = details.identifiers.get(i.request_id) ?? [];
    list.push({ kind: i.kind, value_hash: i.value_hash, masked_value: i.masked_value });
    details.identifiers.set(i.request_id, list);
  }
  const exports = await db
    .selectFrom('privacy_exports')
    .select(['request_id', (eb) => eb.fn.max('expires_at').as('expires_at')])
    .where('request_id', 'in', ids)
    .groupBy('request_id')
    .execute();
  for (const e of exports) details.exportExpiry.set(e.request_id, Number(e.expires_at));
  return details;
}

/** Requests by type and status, and when the oldest pending one of each type was filed: one grouped scan. */
export async function summarizePendingWork(db: Kysely<Database>): Promise<{
  counts: Map<string, number>;
  oldestPending: Map<PrivacyRequestType, number>;
}> {
  const rows = await db
    .selectFrom('privacy_requests')
    .select(['type', 'status'])
    .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.min('submitted_at').as('oldest')])
    .groupBy(['type', 'status'])
    .execute();
  const counts = new Map<string, number>();
  const oldestPending = new Map<PrivacyRequestType, number>();
  for (const r of rows) {
    counts.set(`${r.type}:${r.status}`, Number(r.n));
    if (r.status === 'PENDING' && r.oldest !== null) oldestPending.set(r.type, Number(r.oldest));
  }
  return { counts, oldestPending };
}
