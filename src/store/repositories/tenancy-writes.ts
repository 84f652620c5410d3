import type { Kysely } from 'kysely';
import type { PlanItem } from '../../domain/plan-items.js';
import { chunks } from '../chunks.js';
import { IDS_PER_STATEMENT, insertChunked } from '../insert-chunked.js';
import type { Database } from '../schema.js';

/** Where each kind of object a configuration file names is kept. */
const TABLES = {
  client: 'clients',
  application: 'applications',
  passkey: 'passkeys',
  webhook: 'webhook_endpoints',
} as const;

/** Marks objects of one kind as managed by `stack` (an adoption). */
export async function setManagedBy(
  db: Kysely<Database>,
  kind: PlanItem['kind'],
  ids: readonly string[],
  stack: string,
): Promise<void> {
  for (const part of chunks(ids, IDS_PER_STATEMENT))
    await db.updateTable(TABLES[kind]).set({ managed_by: stack }).where('id', 'in', part).execute();
}

/** Records the `rotate:` label of an application's or an endpoint's current secret. */
export async function setRotateLabel(
  db: Kysely<Database>,
  kind: 'application' | 'webhook',
  id: string,
  label: string,
): Promise<void> {
  await db.updateTable(TABLES[kind]).set({ rotate_label: label }).where('id', '=', id).execute();
}

/** Grants an application exactly these clients. */
export async function replaceGrants(
  db: Kysely<Database>,
  applicationId: string,
  clientIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('application_grants').where('application_id', '=', applicationId).execute();
  await insertChunked(
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
  await insertChunked(
    db,
    'webhook_subscriptions',
    eventTypes.map((event_type) => ({ endpoint_id: endpointId, event_type })),
  );
}
