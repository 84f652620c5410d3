import type { Kysely } from 'kysely';
import type { Database, TokenSigningKeysTable } from '../schema.js';

export type TokenSigningKeyRow = TokenSigningKeysTable;

/** Keys whose tokens may still be valid at `now`: those that sign, and those retiring later. */
export async function listUsableSigningKeys(
  db: Kysely<Database>,
  now: number,
): Promise<TokenSigningKeyRow[]> {
  return db
    .selectFrom('token_signing_keys')
    .selectAll()
    .where((eb) => eb.or([eb('retire_at', 'is', null), eb('retire_at', '>', now)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertSigningKey(db: Kysely<Database>, row: TokenSigningKeyRow): Promise<void> {
  await db.insertInto('token_signing_keys').values(row).execute();
}

/** Sets when every signing key other than `keepId` stops being accepted (earlier dates stand). */
export async function retireSigningKeys(
  db: Kysely<Database>,
  keepId: string,
  retireAt: number,
): Promise<void> {
  await db
    .updateTable('token_signing_keys')
    .set({ retire_at: retireAt })
    .where('id', '!=', keepId)
    .where((eb) => eb.or([eb('retire_at', 'is', null), eb('retire_at', '>', retireAt)]))
    .execute();
}

/** Keys retired before `now` can verify nothing any more. */
export async function deleteRetiredSigningKeys(db: Kysely<Database>, now: number): Promise<number> {
  const r = await db.deleteFrom('token_signing_keys').where('retire_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
