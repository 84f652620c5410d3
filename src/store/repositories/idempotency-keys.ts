import type { Kysely } from 'kysely';
import { preparedQuery } from '../prepared-query.js';
import type { Database } from '../schema.js';

/** Whose key (`scope`) and which (`keyHash`, its digest): a key's record is found by both. */
interface KeyOf {
  readonly scope: string;
  readonly keyHash: string;
}

/** What a retry reads of a key's record: whether it is the same request, and what was kept for it. */
export interface StoredAnswer {
  readonly fingerprint: string;
  readonly sealedAnswer: string;
  readonly createdAt: number;
}

const findKey = preparedQuery((db, p: { scope: string; keyHash: string }) =>
  db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'sealed_answer', 'created_at'])
    .where('scope', '=', p.scope)
    .where('key_hash', '=', p.keyHash),
);

export async function findIdempotencyKey(
  db: Kysely<Database>,
  key: KeyOf,
): Promise<StoredAnswer | undefined> {
  const row = await findKey.executeTakeFirst(db, { scope: key.scope, keyHash: key.keyHash });
  return (
    row && {
      fingerprint: row.fingerprint,
      sealedAnswer: row.sealed_answer,
      createdAt: Number(row.created_at),
    }
  );
}

// Written until a contract migration drops the column: it is mandatory, and nothing reads it.
const UNREAD_STATUS = 0;

const claimKey = preparedQuery(
  (db, p: { scope: string; keyHash: string; fingerprint: string; createdAt: number; expiredAt: number }) =>
    db
      .insertInto('idempotency_keys')
      .values({
        scope: p.scope,
        key_hash: p.keyHash,
        fingerprint: p.fingerprint,
        status: UNREAD_STATUS,
        sealed_answer: '',
        created_at: p.createdAt,
      })
      .onConflict((oc) =>
        oc
          .columns(['scope', 'key_hash'])
          .doUpdateSet({ fingerprint: p.fingerprint, sealed_answer: '', created_at: p.createdAt })
          .where('idempotency_keys.created_at', '<=', p.expiredAt),
      ),
);

/**
 * Takes a key for the transaction `db`, before what the request creates: true when it is this
 * request's (free, or taken at or before `expiredAt`, which is free again), false when another
 * request's record holds it. On PostgreSQL a key another transaction has just taken makes this
 * wait until that one ends: taken if it committed, this request's if it rolled back. What is kept
 * for the key is written by recordIdempotentAnswer, in the same transaction.
 */
export async function claimIdempotencyKey(
  db: Kysely<Database>,
  key: KeyOf & { readonly fingerprint: string; readonly createdAt: number; readonly expiredAt: number },
): Promise<boolean> {
  const result = await claimKey.executeRaw(db, { ...key });
  return Number(result.numAffectedRows ?? 0) > 0;
}

const recordAnswer = preparedQuery((db, p: { scope: string; keyHash: string; sealedAnswer: string }) =>
  db
    .updateTable('idempotency_keys')
    .set({ sealed_answer: p.sealedAnswer })
    .where('scope', '=', p.scope)
    .where('key_hash', '=', p.keyHash),
);

/** Writes what is kept for a key this transaction claimed (claimIdempotencyKey). */
export async function recordIdempotentAnswer(
  db: Kysely<Database>,
  key: KeyOf & { readonly sealedAnswer: string },
): Promise<void> {
  await recordAnswer.executeRaw(db, { ...key });
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
