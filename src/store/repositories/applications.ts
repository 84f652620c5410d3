import { type Kysely, sql } from 'kysely';
import type { Application } from '../../domain/application.js';
import type { Environment } from '../../domain/environment.js';
import type { PagePosition } from '../../domain/page-cursor.js';
import { insertChunked } from '../insert-chunked.js';
import { afterPosition } from '../keyset-page.js';
import type { ApplicationRow, Database } from '../schema.js';

/** One client secret of an application, as its hash: the secret itself is shown once. */
export interface ApplicationSecret {
  readonly id: string;
  readonly applicationId: string;
  readonly secretHash: string;
  readonly createdAt: number;
}

/** What the domain's Application holds of a row; a file's bookkeeping columns stay in the store. */
type ApplicationFields = Omit<ApplicationRow, 'managed_by' | 'rotate_label'>;

function toApplication(row: ApplicationFields): Application {
  return {
    id: row.id,
    environment: row.environment,
    clientId: row.client_id,
    name: row.name,
    status: row.status,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export async function insertApplication(db: Kysely<Database>, application: Application): Promise<void> {
  await db.insertInto('applications').values(applicationRow(application)).execute();
}

const applicationRow = (a: Application & Managed) => ({
  id: a.id,
  environment: a.environment,
  client_id: a.clientId,
  name: a.name,
  status: a.status,
  created_at: a.createdAt,
  revoked_at: a.revokedAt,
  ...(a.managedBy === undefined ? {} : { managed_by: a.managedBy }),
  ...(a.rotateLabel === undefined ? {} : { rotate_label: a.rotateLabel }),
});

/** What a configuration file keeps of the objects it manages: its stack and the `rotate:` label. */
interface Managed {
  readonly managedBy?: string | null;
  readonly rotateLabel?: string | null;
}

/** An application as a configuration file creates it: with its first secret and its grants. */
export interface NewApplication extends Application, Managed {
  readonly secret: { readonly id: string; readonly secretHash: string };
  /** The ids of the clients it is granted. */
  readonly grantedClientIds: readonly string[];
}

/** Stores new applications with their secrets and grants, many a statement. */
export async function insertApplications(
  db: Kysely<Database>,
  applications: readonly NewApplication[],
): Promise<void> {
  await insertChunked(db, 'applications', applications.map(applicationRow));
  await insertChunked(
    db,
    'application_secrets',
    applications.map((a) => secretRow({ ...a.secret, applicationId: a.id, createdAt: a.createdAt })),
  );
  await insertChunked(
    db,
    'application_grants',
    applications.flatMap((a) =>
      a.grantedClientIds.map((clientId) => ({ application_id: a.id, client_id: clientId })),
    ),
  );
}

export async function findApplicationById(
  db: Kysely<Database>,
  id: string,
): Promise<Application | undefined> {
  const row = await db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toApplication(row);
}

export async function findApplicationByClientId(
  db: Kysely<Database>,
  clientId: string,
): Promise<Application | undefined> {
  const row = await db
    .selectFrom('applications')
    .selectAll()
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row && toApplication(row);
}

/** An application with its active client secrets. */
export interface ApplicationCredentials {
  readonly application: Application;
  readonly secrets: readonly ApplicationSecret[];
}

/**
 * The application with this client id in this environment and its active secrets, in one query
 * that returns a row of the same shape whether or not the application exists (the probe row of
 * the outer joins), so an unknown client id costs the database, and the mapping of its answer,
 * what a known one does (docs/design.md, Token service).
 */
export async function findApplicationCredentials(
  db: Kysely<Database>,
  clientId: string,
  environment: Environment,
): Promise<ApplicationCredentials | undefined> {
  const probe = db
    .selectNoFrom([
      sql<string>`cast(${clientId} as text)`.as('client_id'),
      sql<Environment>`cast(${environment} as text)`.as('environment'),
    ])
    .as('probe');
  const rows = await db
    .selectFrom(probe)
    .leftJoin('applications', (join) =>
      join
        .onRef('applications.client_id', '=', 'probe.client_id')
        .onRef('applications.environment', '=', 'probe.environment'),
    )
    .leftJoin('application_secrets', (join) =>
      join
        .onRef('application_secrets.application_id', '=', 'applications.id')
        .on('application_secrets.retired_at', 'is', null),
    )
    .select([
      'applications.id',
      'applications.environment',
      'applications.client_id',
      'applications.name',
      'applications.status',
      'applications.created_at',
      'applications.revoked_at',
      'application_secrets.id as secret_id',
      'application_secrets.secret_hash',
      'application_secrets.created_at as secret_created_at',
    ])
    .execute();
  const first = rows[0];
  // Ids are never null in their tables: a null id is an outer join finding no row.
  if (!first || first.id === null) return undefined;
  const application = toApplication(first as ApplicationFields);
  const secrets = rows.flatMap((r): ApplicationSecret[] =>
    r.secret_id === null || r.secret_hash === null || r.secret_created_at === null
      ? []
      : [
          {
            id: r.secret_id,
            applicationId: application.id,
            secretHash: r.secret_hash,
            createdAt: r.secret_created_at,
          },
        ],
  );
  return { application, secrets };
}

/** A page of one environment's applications, in creation order (services/paging). */
export async function pageApplications(
  db: Kysely<Database>,
  environment: Environment,
  after: PagePosition | null,
  limit: number,
): Promise<Application[]> {
  let q = db.selectFrom('applications').selectAll().where('environment', '=', environment);
  if (after) q = q.where(afterPosition('created_at', 'id', after));
  return (await q.orderBy('created_at').orderBy('id').limit(limit).execute()).map(toApplication);
}

export async function markApplicationRevoked(db: Kysely<Database>, id: string, at: number): Promise<number> {
  const r = await db
    .updateTable('applications')
    .set({ status: 'revoked', revoked_at: at })
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function insertSecret(db: Kysely<Database>, secret: ApplicationSecret): Promise<void> {
  await db.insertInto('application_secrets').values(secretRow(secret)).execute();
}

const secretRow = (secret: ApplicationSecret) => ({
  id: secret.id,
  application_id: secret.applicationId,
  secret_hash: secret.secretHash,
  created_at: secret.createdAt,
});

export async function listActiveSecrets(
  db: Kysely<Database>,
  applicationId: string,
): Promise<ApplicationSecret[]> {
  return db
    .selectFrom('application_secrets')
    .select(['id', 'application_id as applicationId', 'secret_hash as secretHash', 'created_at as createdAt'])
    .where('application_id', '=', applicationId)
    .where('retired_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

export async function retireSecret(db: Kysely<Database>, secretId: string, at: number): Promise<void> {
  await db.updateTable('application_secrets').set({ retired_at: at }).where('id', '=', secretId).execute();
}
