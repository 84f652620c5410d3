import type { Kysely } from 'kysely';
import {
  type AnswerSeal,
  idempotencyKeyHash,
  idempotencyKeysExpiredAt,
  openAnswer,
  sealAnswer,
} from '../../domain/idempotency-key.js';
import { AppError } from '../../errors.js';
import {
  deleteExpiredIdempotencyKey,
  findIdempotencyKey,
  type IdempotencyKeyRecord,
  insertIdempotencyKey,
} from '../../store/repositories/idempotency-keys.js';
import type { Database } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';

export interface IdempotentRequest {
  /** Whose keys these are: a key names a request only among one caller's requests. */
  readonly scope: string;
  /** The Idempotency-Key sent, if any. */
  readonly key: string | undefined;
  /** requestFingerprint() of the request; read only with a key. */
  readonly fingerprint: string;
  /** What only the caller holds, for sealing its answers (domain/idempotency-key.ts). */
  readonly callerSecret: string;
}

/**
 * Records the key with what is kept to answer again (`kept`, and the answer's status), in the
 * transaction `trx` of what the create writes; a key another request took first fails it as a
 * unique violation. `record` gives the same record for a statement that writes it beside the
 * create's own rows, where a key taken first fails the statement in the same way.
 */
export interface ClaimKey<K> {
  (trx: Kysely<Database>, kept: K, status: number): Promise<void>;
  record(kept: K, status: number): IdempotencyKeyRecord;
}

/**
 * A create run at most once per Idempotency-Key (domain/idempotency-key.ts): a retry with the same
 * key and request within 24 hours gets `replay` of what the first kept, and creates nothing; the
 * key with another request is 422. `create` must call its ClaimKey, when given one, in the transaction that writes
 * what it creates: key and object commit together, so no crash between them leaves an object a
 * retry would create again. A retry arriving while the first runs waits for it on PostgreSQL (its
 * insert of the key waits for the first's transaction) and runs after it on SQLite (one writer).
 */
export async function createOnce<T, K>(
  deps: ServiceDeps,
  request: IdempotentRequest,
  create: (claim: ClaimKey<K> | undefined) => Promise<T>,
  replay: (kept: K) => Promise<T>,
): Promise<{ readonly value: T; readonly replayed: boolean }> {
  const { key, scope, fingerprint } = request;
  // Without a key nothing is recorded, and a create may take a path that has no room for it.
  if (key === undefined) return { value: await create(undefined), replayed: false };
  const keyHash = idempotencyKeyHash(deps.identifierKey, key);
  const seal: AnswerSeal = { idempotencyKey: key, scope, callerSecret: request.callerSecret };

  /** What was kept for the key, or null when it is free (an expired one is deleted). */
  const earlier = async () => {
    const found = await findIdempotencyKey(deps.store.db, scope, keyHash);
    if (!found) return null;
    const expiredAt = idempotencyKeysExpiredAt(deps.clock());
    if (found.createdAt <= expiredAt) {
      await deleteExpiredIdempotencyKey(deps.store.db, { scope, keyHash, expiredAt });
      return null;
    }
    if (found.fingerprint !== fingerprint)
      throw new AppError('IDEMPOTENCY_KEY_REUSED', {
        detail: 'this Idempotency-Key was used with another request in the last 24 hours; use a new key',
      });
    // Sealed by this create's own ClaimKey under the caller's secret: what it kept.
    return { kept: openAnswer(seal, found.sealedAnswer) as K };
  };

  const first = await earlier();
  if (first) return { value: await replay(first.kept), replayed: true };
  try {
    const record = (kept: K, status: number): IdempotencyKeyRecord => ({
      scope,
      keyHash,
      fingerprint,
      status,
      sealedAnswer: sealAnswer(seal, kept),
      createdAt: deps.clock(),
    });
    const claim = Object.assign(
      (trx: Kysely<Database>, kept: K, status: number) => insertIdempotencyKey(trx, record(kept, status)),
      { record },
    );
    const value = await create(claim);
    return { value, replayed: false };
  } catch (err) {
    // The key was taken meanwhile, or the first request's object stood in the way of this one's
    // (a pending privacy request, a duplicate response): the first one's answer is this one's.
    const winner = await earlier();
    if (winner) return { value: await replay(winner.kept), replayed: true };
    throw err;
  }
}
