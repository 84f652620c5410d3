import type { Kysely } from 'kysely';
import type { Client, Database, Environment } from '../schema.js';

export async function insertClient(db: Kysely<Database>, row: Client): Promise<void> {
  await db.insertInto('clients').values(row).execute();
}

export async function findClientByName(
  db: Kysely<Database>,
  environment: Environment,
  name: string,
): Promise<Client | undefined> {
  return db
    .selectFrom('clients')
    .selectAll()
    .where('environment', '=', environment)
    .where('name', '=', name)
    .executeTakeFirst();
}

export async function findClientsByNames(
  db: Kysely<Database>,
  environment: Environment,
  names: readonly string[],
): Promise<Client[]> {
  if (names.length === 0) return [];
  return db
    .selectFrom('clients')
    .selectAll()
    .where('environment', '=', environment)
    .where('name', 'in', names)
    .execute();
}

export async function listClients(db: Kysely<Database>, environment?: Environment): Promise<Client[]> {
  let q = db.selectFrom('clients').selectAll().orderBy('environment').orderBy('name');
  if (environment) q = q.where('environment', '=', environment);
  return q.execute();
}

/** The client instances an application may act for, ordered by name. */
export async function listGrantedClients(db: Kysely<Database>, applicationId: string): Promise<Client[]> {
  return db
    .selectFrom('application_grants')
    .innerJoin('clients', 'clients.id', 'application_grants.client_id')
    .selectAll('clients')
    .where('application_grants.application_id', '=', applicationId)
    .orderBy('clients.name')
    .execute();
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
