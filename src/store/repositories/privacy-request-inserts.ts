import type { Kysely } from 'kysely';
import type { AuditEvent } from '../../domain/audit-event.js';
import type { Environment } from '../../domain/environment.js';
import { IDENTIFIER_KINDS } from '../../domain/identifiers.js';
import type { PrivacyRequestType } from '../../domain/privacy-request.js';
import type { WebhookEvent } from '../../domain/webhook-event.js';
import { chunks } from '../chunks.js';
import type { Store } from '../database.js';
import { dialectOf } from '../dialect-of.js';
import { preparedInsert } from '../prepared-query.js';
import type { Database } from '../schema.js';
import { auditEventRow, insertAuditEvents } from './audit-events.js';
import type { RequestIdentifierRow } from './privacy-requests.js';
import { enqueueWebhookEvents, webhookEventInserts } from './webhook-outbox.js';

export interface NewPrivacyRequest {
  readonly id: string;
  readonly environment: Environment;
  readonly applicationId: string;
  readonly type: PrivacyRequestType;
  readonly submittedAt: number;
  readonly dueAt: number;
  readonly baseUrl: string | null;
  readonly traceParent: string | null;
  readonly clients: readonly { id: string; name: string }[];
  readonly identifiers: readonly (RequestIdentifierRow & { masked: string })[];
  readonly pendingKeys: readonly { clientId: string; kind: string; hash: string }[];
}

/**
 * Most pending keys one insert statement carries: keeps a statement's parameters (five per key)
 * well inside both databases' limits.
 */
const PENDING_KEYS_PER_STATEMENT = 1000;

type Rows = ReturnType<typeof rowsOf>;

/** The rows of a new request, one list per table; the columns of its progress start null. */
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
      base_url: request.baseUrl,
      trace_parent: request.traceParent,
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
    'base_url',
    'trace_parent',
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
 * Files a new request: the request with its clients, identifier hashes and pending keys, its audit
 * event and its webhook event, all or nothing. A unique violation on privacy_pending_keys means the
 * end user already has a pending request (docs/interface.md §4.3), and nothing of this one is kept,
 * its events included. Returns how many webhook deliveries its event got.
 *
 * PostgreSQL: one statement, atomic on its own, is one round trip instead of six (begin, four
 * inserts, commit). SQLite, requests with more pending keys than one statement carries, and those
 * with more to write: the inserts in one transaction, shared with other small writes on SQLite
 * (store/group-commit.ts).
 */
export async function insertPrivacyRequest(
  store: Pick<Store, 'db' | 'groupCommit'>,
  request: NewPrivacyRequest,
  events: RequestEvents,
): Promise<number> {
  const rows = rowsOf(request);
  if (dialectOf(store.db) === 'postgres' && rows.pendingKeys.length <= PENDING_KEYS_PER_STATEMENT) {
    return insertInOneStatement(store.db, rows, events);
  }
  return store.groupCommit((trx) => insertInSteps(trx, rows, events));
}

/** The inserts one by one, in the caller's transaction. */
async function insertInSteps(db: Kysely<Database>, rows: Rows, events: RequestEvents): Promise<number> {
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

/** The same rows in one statement, the other inserts as CTEs (PostgreSQL). */
async function insertInOneStatement(
  db: Kysely<Database>,
  rows: Rows,
  events: RequestEvents,
): Promise<number> {
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
