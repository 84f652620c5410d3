import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A key's record as written with the answer of the request that used it. */
export interface IdempotencyKeyRecord {
  readonly scope: string;
  readonly keyHash: string;
  readonly fingerprint: string;
  readonly status: number;
  readonly sealedAnswer: string;
  readonly createdAt: number;
}

/** What a retry reads of the key's record: whether it is the same request, and its answer. */
type StoredAnswer = Pick<IdempotencyKeyRecord, 'fingerprint' | 'sealedAnswer' | 'createdAt'>;

/** The row of a record, for a statement that writes it beside other rows (privacy-request-inserts.ts). */
export function idempotencyKeyRow(key: IdempotencyKeyRecord) {
  return {
    scope: key.scope,
    key_hash: key.keyHash,
    fingerprint: key.fingerprint,
    status: key.status,
    sealed_answer: key.sealedAnswer,
    created_at: key.createdAt,
  };
}

/**
 * Records a key with the answer of the request that used it, in the transaction of what that
 * request created; a key taken first fails it as a unique violation. On PostgreSQL an insert of a
 * key another transaction has just inserted waits until that one ends, so concurrent retries find
 * the first one's answer committed rather than creating twice.
 */
export async function insertIdempotencyKey(db: Kysely<Database>, key: IdempotencyKeyRecord): Promise<void> {
  await db.insertInto('idempotency_keys').values(idempotencyKeyRow(key)).execute();
}

export async function findIdempotencyKey(
  db: Kysely<Database>,
  scope: string,
  keyHash: string,
): Promise<StoredAnswer | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'sealed_answer', 'created_at'])
    .where('scope', '=', scope)
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
  return (
    row && {
      fingerprint: row.fingerprint,
      sealedAnswer: row.sealed_answer,
      createdAt: Number(row.created_at),
    }
  );
}

/** Deletes a key taken at or before `expiredAt`: one taken since is another request's. */
export async function deleteExpiredIdempotencyKey(
  db: Kysely<Database>,
  key: { scope: string; keyHash: string; expiredAt: number },
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', key.scope)
    .where('key_hash', '=', key.keyHash)
    .where('created_at', '<=', key.expiredAt)
    .execute();
}

/** Deletes up to `limit` keys taken at or before `expiredAt`; returns how many. */
export async function deleteExpiredIdempotencyKeys(
  db: Kysely<Database>,
  expiredAt: number,
  limit: number,
): Promise<number> {
  const old = db
    .selectFrom('idempotency_keys')
    .select('key_hash')
    .where('created_at', '<=', expiredAt)
    .limit(limit);
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<=', expiredAt)
    .where('key_hash', 'in', old)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
