import type { Insertable, Kysely } from 'kysely';
import { chunks } from '../chunks.js';
import type { Database } from '../schema.js';

// Many rows a statement (a configuration file of thousands of objects), few enough that the bound
// values stay below SQLite's 32766: at most 15 columns a row.
const ROWS = 1000;

type Table = 'clients' | 'applications' | 'application_secrets' | 'application_grants' | 'passkeys';
type WebhookTable = 'webhook_endpoints' | 'webhook_subscriptions' | 'webhook_secrets';

/** Inserts `rows` into `table` a chunk a statement, in the caller's transaction. */
export async function insertRows<T extends Table | WebhookTable>(
  db: Kysely<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  for (const part of chunks(rows, ROWS))
    await db
      .insertInto(table)
      // biome-ignore lint/suspicious/noExplicitAny: one statement builder for several row types.
      .values(part as any)
      .execute();
}

/** The tables whose rows a stack may manage. */
export type ManagedTable = 'clients' | 'applications' | 'passkeys' | 'webhook_endpoints';

/** Marks rows as managed by `stack` (an adoption). */
export async function setManagedBy(
  db: Kysely<Database>,
  table: ManagedTable,
  ids: readonly string[],
  stack: string,
): Promise<void> {
  for (const part of chunks(ids, ROWS))
    await db.updateTable(table).set({ managed_by: stack }).where('id', 'in', part).execute();
}

/** Records the `rotate:` label of an application's or an endpoint's current secret. */
export async function setRotateLabel(
  db: Kysely<Database>,
  table: 'applications' | 'webhook_endpoints',
  id: string,
  label: string,
): Promise<void> {
  await db.updateTable(table).set({ rotate_label: label }).where('id', '=', id).execute();
}

/** Grants an application exactly these clients. */
export async function replaceGrants(
  db: Kysely<Database>,
  applicationId: string,
  clientIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('application_grants').where('application_id', '=', applicationId).execute();
  await insertRows(
    db,
    'application_grants',
    clientIds.map((client_id) => ({ application_id: applicationId, client_id })),
  );
}

/** Subscribes an endpoint to exactly these event types. */
export async function replaceSubscriptions(
  db: Kysely<Database>,
  endpointId: string,
  eventTypes: readonly string[],
): Promise<void> {
  await db.deleteFrom('webhook_subscriptions').where('endpoint_id', '=', endpointId).execute();
  await insertRows(
    db,
    'webhook_subscriptions',
    eventTypes.map((event_type) => ({ endpoint_id: endpointId, event_type })),
  );
}

/** Applications of `ids` that have a usable default passkey at `now` (services/tenancy/create-passkey.ts). */
export async function applicationsWithUsablePasskeys(
  db: Kysely<Database>,
  ids: readonly string[],
  now: number,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks(ids, ROWS)) {
    const rows = await db
      .selectFrom('passkeys')
      .select('application_id')
      .distinct()
      .where('application_id', 'in', part)
      .where('status', '=', 'active')
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .execute();
    for (const r of rows) found.add(r.application_id);
  }
  return found;
}
