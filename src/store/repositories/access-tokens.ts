import type { Kysely, Selectable } from 'kysely';
import type { AccessTokensTable, Database } from '../schema.js';

export type AccessToken = Selectable<AccessTokensTable>;

export async function insertAccessToken(db: Kysely<Database>, row: AccessToken): Promise<void> {
  await db.insertInto('access_tokens').values(row).execute();
}

export async function findAccessToken(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<AccessToken | undefined> {
  return db.selectFrom('access_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** A token with the application it belongs to: what a bearer check needs, in one round trip. */
export async function findTokenWithApplication(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('access_tokens as t')
    .innerJoin('applications as a', 'a.id', 't.application_id')
    .select([
      't.environment',
      't.secret_id',
      't.expires_at',
      't.revoked_at',
      'a.id as application_id',
      'a.name as application_name',
      'a.client_id',
      'a.status as application_status',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function revokeAccessToken(db: Kysely<Database>, tokenHash: string, at: number): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: at })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeTokensOfApplication(
  db: Kysely<Database>,
  applicationId: string,
  at: number,
): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: at })
    .where('application_id', '=', applicationId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeTokensOfSecret(
  db: Kysely<Database>,
  secretId: string,
  at: number,
): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: at })
    .where('secret_id', '=', secretId)
    .where('revoked_at', 'is', null)
    .execute();
}
