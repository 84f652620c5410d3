import type { Kysely } from 'kysely';
import type { Database, TokenDenialsTable } from '../schema.js';

export type TokenDenial = TokenDenialsTable;

export async function insertTokenDenial(db: Kysely<Database>, row: TokenDenial): Promise<void> {
  await db
    .insertInto('token_denials')
    .values(row)
    .onConflict((oc) => oc.column('token_id').doNothing())
    .execute();
}

export async function listLiveTokenDenials(
  db: Kysely<Database>,
  now: number,
): Promise<Pick<TokenDenial, 'token_id' | 'expires_at'>[]> {
  return db
    .selectFrom('token_denials')
    .select(['token_id', 'expires_at'])
    .where('expires_at', '>', now)
    .execute();
}

export async function isTokenDenied(db: Kysely<Database>, tokenId: string, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('token_denials')
    .select('token_id')
    .where('token_id', '=', tokenId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes up to `limit` entries of tokens that have expired on their own; returns how many. */
export async function deleteExpiredTokenDenials(
  db: Kysely<Database>,
  now: number,
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom('token_denials')
    .where('token_id', 'in', (eb) =>
      eb.selectFrom('token_denials').select('token_id').where('expires_at', '<=', now).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
