import type { Kysely, Updateable } from 'kysely';
import type { Database, Passkey, PasskeysTable } from '../schema.js';

export async function insertPasskey(db: Kysely<Database>, row: Passkey): Promise<void> {
  await db.insertInto('passkeys').values(row).execute();
}

export async function findPasskeyByHash(db: Kysely<Database>, keyHash: string): Promise<Passkey | undefined> {
  return db.selectFrom('passkeys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
}

export async function findPasskeyById(db: Kysely<Database>, id: string): Promise<Passkey | undefined> {
  return db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findDefaultPasskey(
  db: Kysely<Database>,
  applicationId: string,
): Promise<Passkey | undefined> {
  return db
    .selectFrom('passkeys')
    .selectAll()
    .where('application_id', '=', applicationId)
    .where('status', '=', 'active')
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .executeTakeFirst();
}

export async function listPasskeys(db: Kysely<Database>, applicationId?: string): Promise<Passkey[]> {
  let q = db.selectFrom('passkeys').selectAll().orderBy('created_at');
  if (applicationId) q = q.where('application_id', '=', applicationId);
  return q.execute();
}

export async function updatePasskey(
  db: Kysely<Database>,
  id: string,
  changes: Updateable<PasskeysTable>,
): Promise<number> {
  const r = await db.updateTable('passkeys').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows);
}
