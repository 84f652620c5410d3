import { type Kysely, sql } from 'kysely';
import type { AuditEvent } from '../../domain/audit-event.js';
import type { Environment } from '../../domain/environment.js';
import { IDENTIFIER_KINDS, type IdentifierKind } from '../../domain/identifiers.js';
import { parseReceipt } from '../../domain/privacy-receipt.js';
import type {
  PrivacyRequest,
  PrivacyRequestStatus,
  PrivacyRequestType,
} from '../../domain/privacy-request.js';
import type { WebhookEvent } from '../../domain/webhook-event.js';
import { chunks } from '../chunks.js';
import type { Dialect } from '../database.js';
import { preparedInsert } from '../prepared-query.js';
import type { Database, PrivacyRequestIdentifiersTable, PrivacyRequestRow } from '../schema.js';
import { NO_LEASE } from '../worker-leases.js';
import { auditEventRow, insertAuditEvents } from './audit-events.js';
import { enqueueWebhookEvents, webhookEventInserts } from './webhook-outbox.js';

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

export interface NewPrivacyRequest {
  readonly id: string;
  readonly environment: Environment;
  readonly applicationId: string;
  readonly type: PrivacyRequestType;
  readonly submittedAt: number;
  readonly dueAt: number;
  readonly baseUrl: string | null;
  readonly clients: readonly { id: string; name: string }[];
  readonly identifiers: readonly (RequestIdentifierRow & { masked: string })[];
  readonly pendingKeys: readonly { clientId: string; kind: string; hash: string }[];
}

/**
 * Most pending keys one insert statement carries: keeps a statement's parameters (five per key)
 * well inside both databases' limits.
 */
export const PENDING_KEYS_PER_STATEMENT = 1000;

/** The rows of a new request, one list per table. */
function rowsOf(request: NewPrivacyRequest) {
  return {
    request: {
      id: request.id,
      environment: request.environment,
      application_id: request.applicationId,
      type: request.type,
      status: 'PENDING' as const,
      submitted_at: request.submittedAt,
      due_at: request.dueAt,
      started_at: null,
      completed_at: null,
      receipt: null,
      lease_owner: null,
      lease_expires_at: null,
      base_url: request.baseUrl,
    },
    clients: request.clients.map((c) => ({ request_id: request.id, client_id: c.id, client_name: c.name })),
    identifiers: request.identifiers.map((i) => ({
      request_id: request.id,
      environment: request.environment,
      kind: i.kind,
      value_hash: i.hash,
      masked_value: i.masked,
    })),
    pendingKeys: request.pendingKeys.map((k) => ({
      environment: request.environment,
      client_id: k.clientId,
      kind: k.kind,
      value_hash: k.hash,
      request_id: request.id,
    })),
  };
}

// Compiled once per row count (prepared-query.ts): these run for every request accepted on SQLite.
const requestInsert = preparedInsert(
  'privacy_requests',
  [
    'id',
    'environment',
    'application_id',
    'type',
    'status',
    'submitted_at',
    'due_at',
    'started_at',
    'completed_at',
    'receipt',
    'lease_owner',
    'lease_expires_at',
    'base_url',
  ],
  1,
);
const clientsInsert = preparedInsert(
  'privacy_request_clients',
  ['request_id', 'client_id', 'client_name'],
  32,
);
const identifiersInsert = preparedInsert(
  'privacy_request_identifiers',
  ['request_id', 'environment', 'kind', 'value_hash', 'masked_value'],
  IDENTIFIER_KINDS.length,
);
const pendingKeysInsert = preparedInsert(
  'privacy_pending_keys',
  ['environment', 'client_id', 'kind', 'value_hash', 'request_id'],
  64,
);

/**
 * What a new request's transaction records beside it: its audit event and its webhook event
 * (null: the application has no endpoint, so there is nothing to fan out).
 */
export interface RequestEvents {
  readonly audit: AuditEvent;
  readonly webhook: WebhookEvent | null;
}

/**
 * Inserts a request with its clients, identifier hashes and pending keys. Callers run it in one
 * transaction: a unique violation on privacy_pending_keys means the end user already has a
 * pending request, and nothing of this one is kept, its events included. Returns how many
 * webhook deliveries its event got.
 */
export async function insertPrivacyRequest(
  db: Kysely<Database>,
  request: NewPrivacyRequest,
  events: RequestEvents,
): Promise<number> {
  const rows = rowsOf(request);
  await requestInsert.execute(db, [rows.request]);
  await insertAuditEvents(db, [events.audit]);
  const deliveries = events.webhook ? await enqueueWebhookEvents(db, [events.webhook]) : 0;
  await clientsInsert.execute(db, rows.clients);
  await identifiersInsert.execute(db, rows.identifiers);
  // Named and linked identifiers can be many, so in chunks. Keys arrive in one global order
  // (domain/privacy-subject.ts), so concurrent requests inserting overlapping keys wait on each
  // other instead of deadlocking.
  for (const chunk of chunks(rows.pendingKeys, PENDING_KEYS_PER_STATEMENT)) {
    await pendingKeysInsert.execute(db, chunk);
  }
  return deliveries;
}

/**
 * PostgreSQL: the same rows as insertPrivacyRequest in one statement (the other inserts as CTEs),
 * which is atomic on its own, so a request costs one round trip and no explicit transaction. For
 * requests with at most PENDING_KEYS_PER_STATEMENT pending keys; larger ones go through
 * insertPrivacyRequest. Returns how many webhook deliveries its event got.
 */
export async function insertPrivacyRequestAtOnce(
  db: Kysely<Database>,
  request: NewPrivacyRequest,
  events: RequestEvents,
): Promise<number> {
  if (request.pendingKeys.length > PENDING_KEYS_PER_STATEMENT)
    throw new RangeError('too many pending keys for one statement');
  const rows = rowsOf(request);
  const insert = db
    .with('r', (q) => q.insertInto('privacy_requests').values(rows.request).returning('id'))
    .with('c', (q) => q.insertInto('privacy_request_clients').values(rows.clients).returning('request_id'))
    .with('i', (q) =>
      q.insertInto('privacy_request_identifiers').values(rows.identifiers).returning('request_id'),
    )
    .with('a', (q) => q.insertInto('audit_events').values(auditEventRow(events.audit)).returning('id'));
  if (!events.webhook) {
    await insert.insertInto('privacy_pending_keys').values(rows.pendingKeys).execute();
    return 0;
  }
  const webhook = webhookEventInserts(db, events.webhook);
  const [first] = await insert
    .with('wm', () => webhook.message)
    .with('wd', () => webhook.deliveries)
    .insertInto('privacy_pending_keys')
    .values(rows.pendingKeys)
    // How many deliveries the event got, so the caller wakes the webhook worker only for work.
    .returning((eb) =>
      eb
        .selectFrom('wd')
        .select((w) => w.fn.countAll<string | number>().as('n'))
        .as('deliveries'),
    )
    .execute();
  return Number(first?.deliveries ?? 0);
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
  readonly before?: { submittedAt: number; id: string };
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
  if (before !== undefined) {
    q = q.where((eb) =>
      eb.or([
        eb('r.submitted_at', '<', before.submittedAt),
        eb.and([eb('r.submitted_at', '=', before.submittedAt), eb('r.id', '<', before.id)]),
      ]),
    );
  }
  return q.orderBy('r.submitted_at', 'desc').orderBy('r.id', 'desc').limit(f.limit).execute();
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

/** Saves the receipts so far of requests still in progress, in one statement. */
export async function saveReceipts(
  db: Kysely<Database>,
  receipts: readonly { id: string; receipt: string }[],
): Promise<void> {
  if (receipts.length === 0) return;
  await db
    .updateTable('privacy_requests')
    .set({ receipt: receiptById(receipts) })
    .where(
      'id',
      'in',
      receipts.map((r) => r.id),
    )
    .execute();
}

/**
 * Completes requests, each with its receipt, and releases their pending keys in the caller's
 * transaction: two statements however many requests.
 */
export async function markRequestsCompleted(
  db: Kysely<Database>,
  completion: { at: number; receipts: readonly { id: string; receipt: string }[] },
): Promise<void> {
  if (completion.receipts.length === 0) return;
  const ids = completion.receipts.map((r) => r.id);
  await db
    .updateTable('privacy_requests')
    .set({
      status: 'COMPLETED',
      completed_at: completion.at,
      receipt: receiptById(completion.receipts),
      ...NO_LEASE,
    })
    .where('id', 'in', ids)
    .execute();
  await db.deleteFrom('privacy_pending_keys').where('request_id', 'in', ids).execute();
}

/** `case id when … then receipt … end`: one receipt per row in a single update. */
function receiptById(receipts: readonly { id: string; receipt: string }[]) {
  const arms = receipts.map((r) => sql`when ${r.id} then ${r.receipt}`);
  return sql<string>`case id ${sql.join(arms, sql` `)} end`;
}

/**
 * What other requests hold of these requests' subjects: each (request, client) where another
 * request named one of a subject's keys (named or linked identifiers) and covered that key's
 * client, in the same environment, whichever application filed it; `subjectRequestId` says whose.
 * Read while the keys still exist, that is before the requests complete.
 */
export async function findRequestsNamingSubjects(
  db: Kysely<Database>,
  dialect: Dialect,
  requestIds: readonly string[],
): Promise<{ subjectRequestId: string; requestId: string; clientId: string }[]> {
  if (requestIds.length === 0) return [];
  const rows = await requestsNamingSubjectsQuery(db, dialect, requestIds).execute();
  return rows.map((r) => ({
    subjectRequestId: r.subject_request_id,
    requestId: r.request_id,
    clientId: r.client_id,
  }));
}

/**
 * The query of findRequestsNamingSubjects, for its plan to be examined. Driven by the subject
 * keys, each an exact look-up in the request identifier index. On PostgreSQL that look-up is a
 * fenced LATERAL subquery, as in findSubjectReviewsOfRequests (privacy-subjects.ts): the pending
 * keys' statistics lag behind a busy queue, and the plain join was planned as a sequential scan of
 * every request's identifiers, a table that keeps growing.
 */
export function requestsNamingSubjectsQuery(
  db: Kysely<Database>,
  dialect: Dialect,
  requestIds: readonly string[],
) {
  const keys = db.selectFrom('privacy_pending_keys as k').where('k.request_id', 'in', requestIds);
  if (dialect === 'postgres') {
    return keys
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('privacy_request_identifiers as i')
            .innerJoin('privacy_request_clients as c', (join) =>
              join.onRef('c.request_id', '=', 'i.request_id').onRef('c.client_id', '=', 'k.client_id'),
            )
            .select(['i.request_id', 'c.client_id'])
            .whereRef('i.environment', '=', 'k.environment')
            .whereRef('i.kind', '=', 'k.kind')
            .whereRef('i.value_hash', '=', 'k.value_hash')
            .whereRef('i.request_id', '<>', 'k.request_id')
            // A fence: without it PostgreSQL pulls the subquery up into a plain join.
            .offset(0)
            .as('m'),
        (join) => join.onTrue(),
      )
      .select(['k.request_id as subject_request_id', 'm.request_id', 'm.client_id'])
      .distinct();
  }
  return keys
    .innerJoin('privacy_request_identifiers as i', (join) =>
      join
        .onRef('i.environment', '=', 'k.environment')
        .onRef('i.kind', '=', 'k.kind')
        .onRef('i.value_hash', '=', 'k.value_hash'),
    )
    .innerJoin('privacy_request_clients as c', (join) =>
      join.onRef('c.request_id', '=', 'i.request_id').onRef('c.client_id', '=', 'k.client_id'),
    )
    .select(['k.request_id as subject_request_id', 'i.request_id', 'c.client_id'])
    .distinct()
    .whereRef('i.request_id', '<>', 'k.request_id');
}

/** After erasure even the masked display values go: only kinds and keyed hashes remain. */
export async function dropMaskedValues(db: Kysely<Database>, requestIds: readonly string[]): Promise<void> {
  if (requestIds.length === 0) return;
  await db
    .updateTable('privacy_request_identifiers')
    .set({ masked_value: null })
    .where('request_id', 'in', requestIds)
    .execute();
}

/** Up to `limit` requests completed before the cut-off, oldest completion first. */
export async function findCompletedRequestsBefore(
  db: Kysely<Database>,
  before: number,
  limit: number,
): Promise<PrivacyRequestRow[]> {
  return db
    .selectFrom('privacy_requests')
    .selectAll()
    .where('status', '=', 'COMPLETED')
    .where('completed_at', '<', before)
    .orderBy('completed_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Deletes completed requests with everything attached (their clients, identifier hashes and
 * exports go by cascade); a request that is somehow pending again is left alone.
 */
export async function deleteCompletedRequests(db: Kysely<Database>, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await db
    .deleteFrom('privacy_requests')
    .where('status', '=', 'COMPLETED')
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
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
