import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface StoredAnswer {
  readonly fingerprint: string;
  readonly status: number;
  readonly sealedAnswer: string;
  readonly createdAt: number;
}

/**
 * Takes a key for a request about to run, in the caller's transaction; false when it is taken.
 * On PostgreSQL a second transaction inserting the same key waits here until the first ends, so
 * concurrent retries find the first one's answer committed rather than running twice.
 */
export async function claimIdempotencyKey(
  db: Kysely<Database>,
  key: { scope: string; keyHash: string; fingerprint: string; createdAt: number },
): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      scope: key.scope,
      key_hash: key.keyHash,
      fingerprint: key.fingerprint,
      status: 0,
      sealed_answer: '',
      created_at: key.createdAt,
    })
    .onConflict((oc) => oc.columns(['scope', 'key_hash']).doNothing())
    .returning('key_hash')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findIdempotencyKey(
  db: Kysely<Database>,
  scope: string,
  keyHash: string,
): Promise<StoredAnswer | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status', 'sealed_answer', 'created_at'])
    .where('scope', '=', scope)
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
  return (
    row && {
      fingerprint: row.fingerprint,
      status: row.status,
      sealedAnswer: row.sealed_answer,
      createdAt: Number(row.created_at),
    }
  );
}

/** Stores the answer of the request that claimed the key, in the same transaction. */
export async function storeIdempotentAnswer(
  db: Kysely<Database>,
  key: { scope: string; keyHash: string; status: number; sealedAnswer: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: key.status, sealed_answer: key.sealedAnswer })
    .where('scope', '=', key.scope)
    .where('key_hash', '=', key.keyHash)
    .execute();
}

export async function deleteIdempotencyKey(
  db: Kysely<Database>,
  scope: string,
  keyHash: string,
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', scope)
    .where('key_hash', '=', keyHash)
    .execute();
}

/** Deletes up to `limit` keys taken before `before`; returns how many. */
export async function deleteIdempotencyKeysBefore(
  db: Kysely<Database>,
  before: number,
  limit: number,
): Promise<number> {
  const old = db
    .selectFrom('idempotency_keys')
    .select('key_hash')
    .where('created_at', '<', before)
    .limit(limit);
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', before)
    .where('key_hash', 'in', old)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
