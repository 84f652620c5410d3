import type { Transaction } from 'kysely';
import {
  type AnswerSeal,
  idempotencyKeyHash,
  idempotencyKeysExpiredAt,
  openAnswer,
  sealAnswer,
} from '../../domain/idempotency-key.js';
import { AppError } from '../../errors.js';
import {
  claimIdempotencyKey,
  findIdempotencyKey,
  recordIdempotentAnswer,
} from '../../store/repositories/idempotency-keys.js';
import type { Database } from '../../store/schema.js';
import { storeWithin } from '../../store/transaction.js';
import type { ServiceDeps } from '../deps.js';

export interface IdempotentRequest {
  /** Whose keys these are: a key names a request only among one caller's requests. */
  readonly scope: string;
  /** The Idempotency-Key sent, if any. */
  readonly key: string | undefined;
  /** requestFingerprint() of the request; read only with a key. */
  readonly fingerprint: string;
  /** What only the caller holds, for sealing what is kept (domain/idempotency-key.ts). */
  readonly callerSecret: string;
}

/** What a create keeps for its key (sealed), and how a retry is answered from it. */
export interface Replay<T, K> {
  keep(value: T): K;
  answer(kept: K): Promise<T>;
}

/** The create's result kept whole, and answered again as it was. */
const AS_IT_WAS: Replay<unknown, unknown> = { keep: (value) => value, answer: async (kept) => kept };

/**
 * How often a key is claimed again when it was taken at the claim and free when read after it,
 * which takes its first request rolling back, or its record expiring, in between: not again and again.
 */
const CLAIM_ATTEMPTS = 3;

/**
 * Runs a create at most once per Idempotency-Key (domain/idempotency-key.ts). A retry with the
 * same key and request within 24 hours is answered from what the first kept (`replay`; by default
 * its whole result, as it was) and creates nothing; the key with another request is 422.
 *
 * The key is claimed first, in the transaction the create then runs in: `create` gets services'
 * dependencies whose store, group commit and cache reads are that transaction's, and what they do
 * once committed runs after it (deps.afterCommit). So the key's record and the object commit
 * together, and a concurrent retry meets the key, not the object: on PostgreSQL its claim waits
 * for the first's transaction and on SQLite it runs after it (one writer); it then answers from
 * what the first kept, or, if the first rolled back, creates. A failed create is answered with its
 * own error, and leaves the key free.
 */
export async function runIdempotently<T, K = T>(
  deps: ServiceDeps,
  request: IdempotentRequest,
  create: (deps: ServiceDeps) => Promise<T>,
  replay: Replay<T, K> = AS_IT_WAS as Replay<T, K>,
): Promise<{ readonly value: T; readonly replayed: boolean }> {
  const { key, scope, fingerprint } = request;
  if (key === undefined) return { value: await create(deps), replayed: false };
  const claim = { scope, keyHash: idempotencyKeyHash(deps.identifierKey, key), fingerprint };
  const seal: AnswerSeal = { idempotencyKey: key, scope, callerSecret: request.callerSecret };
  for (let attempt = 1; ; attempt++) {
    const found = await findIdempotencyKey(deps.store.db, claim);
    if (found && found.createdAt > idempotencyKeysExpiredAt(deps.clock())) {
      if (found.fingerprint !== fingerprint)
        throw new AppError('IDEMPOTENCY_KEY_REUSED', {
          detail: 'this Idempotency-Key was used with another request in the last 24 hours; use a new key',
        });
      return { value: await replay.answer(openAnswer(seal, found.sealedAnswer) as K), replayed: true };
    }
    const created = await createWithKey(deps, claim, (d) =>
      create(d).then((value) => ({ value, sealed: sealAnswer(seal, replay.keep(value)) })),
    );
    if (created) return { value: created.value, replayed: false };
    if (attempt === CLAIM_ATTEMPTS)
      throw new AppError('CONFLICT', {
        detail: 'another request with this Idempotency-Key is being processed; try again',
      });
  }
}

/**
 * Claims the key and runs `create` in one transaction that records what it keeps; null, having
 * done nothing, when another request's record holds the key.
 */
async function createWithKey<T>(
  deps: ServiceDeps,
  claim: { readonly scope: string; readonly keyHash: string; readonly fingerprint: string },
  create: (deps: ServiceDeps) => Promise<{ value: T; sealed: string }>,
): Promise<{ value: T } | null> {
  const effects: (() => Promise<void>)[] = [];
  // A write of its own on PostgreSQL; on SQLite a savepoint in a shared commit (group-commit.ts).
  const created = await deps.store.groupCommit(async (trx) => {
    const now = deps.clock();
    const claimed = await claimIdempotencyKey(trx, {
      ...claim,
      createdAt: now,
      expiredAt: idempotencyKeysExpiredAt(now),
    });
    if (!claimed) return null;
    const { value, sealed } = await create(depsWithin(deps, trx, effects));
    await recordIdempotentAnswer(trx, { ...claim, sealedAnswer: sealed });
    return { value };
  });
  if (created) for (const effect of effects) await effect();
  return created;
}

/** Services' dependencies inside `trx`: what they write, and what they read, goes through it. */
function depsWithin(
  deps: ServiceDeps,
  trx: Transaction<Database>,
  effects: (() => Promise<void>)[],
): ServiceDeps {
  const store = storeWithin(deps.store, trx);
  const afterCommit = (effect: () => Promise<void>) => {
    effects.push(effect);
  };
  return { ...deps, store, cache: deps.cache.within(store, afterCommit), afterCommit };
}
