import type { Kysely } from 'kysely';
import type { Client } from '../../domain/client.js';
import type { Environment } from '../../domain/environment.js';
import type { PagePosition } from '../../domain/page-cursor.js';
import { insertChunked } from '../insert-chunked.js';
import { afterPosition } from '../keyset-page.js';
import type { ClientRow, Database } from '../schema.js';

const toClient = (row: ClientRow): Client => ({
  id: row.id,
  environment: row.environment,
  name: row.name,
  createdAt: row.created_at,
});

export async function insertClient(db: Kysely<Database>, client: Client): Promise<void> {
  await insertClients(db, [client]);
}

/** Stores new clients, many a statement; `managedBy` is the stack of the configuration file that names one. */
export async function insertClients(
  db: Kysely<Database>,
  clients: readonly (Client & { readonly managedBy?: string | null })[],
): Promise<void> {
  await insertChunked(
    db,
    'clients',
    clients.map((c) => ({
      id: c.id,
      environment: c.environment,
      name: c.name,
      created_at: c.createdAt,
      managed_by: c.managedBy ?? null,
    })),
  );
}

export async function findClientByName(
  db: Kysely<Database>,
  environment: Environment,
  name: string,
): Promise<Client | undefined> {
  const row = await db
    .selectFrom('clients')
    .selectAll()
    .where('environment', '=', environment)
    .where('name', '=', name)
    .executeTakeFirst();
  return row && toClient(row);
}

export async function findClientsByNames(
  db: Kysely<Database>,
  environment: Environment,
  names: readonly string[],
): Promise<Client[]> {
  if (names.length === 0) return [];
  const rows = await db
    .selectFrom('clients')
    .selectAll()
    .where('environment', '=', environment)
    .where('name', 'in', names)
    .execute();
  return rows.map(toClient);
}

export async function listClients(db: Kysely<Database>, environment?: Environment): Promise<Client[]> {
  let q = db.selectFrom('clients').selectAll().orderBy('environment').orderBy('name');
  if (environment) q = q.where('environment', '=', environment);
  return (await q.execute()).map(toClient);
}

/** A page of one environment's client instances, in creation order (services/paging). */
export async function pageClients(
  db: Kysely<Database>,
  environment: Environment,
  after: PagePosition | null,
  limit: number,
): Promise<Client[]> {
  let q = db.selectFrom('clients').selectAll().where('environment', '=', environment);
  if (after) q = q.where(afterPosition('created_at', 'id', after));
  return (await q.orderBy('created_at').orderBy('id').limit(limit).execute()).map(toClient);
}

/** The client instances an application may act for, ordered by name. */
export async function listGrantedClients(db: Kysely<Database>, applicationId: string): Promise<Client[]> {
  const rows = await db
    .selectFrom('application_grants')
    .innerJoin('clients', 'clients.id', 'application_grants.client_id')
    .selectAll('clients')
    .where('application_grants.application_id', '=', applicationId)
    .orderBy('clients.name')
    .execute();
  return rows.map(toClient);
}

export async function insertGrants(
  db: Kysely<Database>,
  applicationId: string,
  clientIds: readonly string[],
): Promise<void> {
  if (clientIds.length === 0) return;
  await db
    .insertInto('application_grants')
    .values(clientIds.map((client_id) => ({ application_id: applicationId, client_id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}
