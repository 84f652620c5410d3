import {
  IDEMPOTENCY_WINDOW_MS,
  idempotencyKeyHash,
  openAnswer,
  sealAnswer,
} from '../../domain/idempotency-key.js';
import { AppError } from '../../errors.js';
import {
  claimIdempotencyKey,
  deleteIdempotencyKey,
  findIdempotencyKey,
  storeIdempotentAnswer,
} from '../../store/repositories/idempotency-keys.js';
import type { ServiceDeps } from '../deps.js';

/** What a create answered: its status and body, as the HTTP layer sends them. */
export interface IdempotentAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface IdempotentRequest {
  /** Whose keys these are: a key names a request only among one caller's requests. */
  readonly scope: string;
  /** The Idempotency-Key sent, if any. */
  readonly key: string | undefined;
  /** requestFingerprint() of the request. */
  readonly fingerprint: string;
  /** What only the caller holds, for sealing its answers (domain/idempotency-key.ts). */
  readonly callerSecret: string;
}

/**
 * Runs a create at most once per Idempotency-Key (domain/idempotency-key.ts). The key's record
 * and the objects the create writes commit in one transaction, so no crash or outage between them
 * can leave an object without its key (a retry would create a second) or a key without its object.
 * A retry of a request still running waits for it (the key's row is locked on PostgreSQL; SQLite
 * runs one write transaction at a time) and answers what it answered. What the create does after
 * its commit (tell other instances of a change) runs once the shared transaction has committed.
 */
export async function runIdempotently(
  deps: ServiceDeps,
  request: IdempotentRequest,
  create: (deps: ServiceDeps) => Promise<IdempotentAnswer>,
): Promise<IdempotentAnswer & { readonly replayed: boolean }> {
  const { key, scope, fingerprint, callerSecret } = request;
  if (key === undefined) return { ...(await create(deps)), replayed: false };
  const keyHash = idempotencyKeyHash(key);
  const seal = { idempotencyKey: key, scope, callerSecret };
  const effects: (() => Promise<void>)[] = [];
  const result = await deps.store.db.transaction().execute(async (trx) => {
    const now = deps.clock();
    const claim = () => claimIdempotencyKey(trx, { scope, keyHash, fingerprint, createdAt: now });
    // A second round only after an expired key was deleted: a concurrent retry may have claimed
    // the key meanwhile, and then its answer is this one's too.
    for (let round = 0; !(await claim()); round++) {
      const found = await findIdempotencyKey(trx, scope, keyHash);
      if (found && (found.createdAt > now - IDEMPOTENCY_WINDOW_MS || round > 0)) {
        if (found.fingerprint !== fingerprint)
          throw new AppError('IDEMPOTENCY_KEY_REUSED', {
            detail: 'this Idempotency-Key was used with another request in the last 24 hours; use a new key',
          });
        return { status: found.status, body: openAnswer(seal, found.sealedAnswer), replayed: true };
      }
      // Expired (housekeeping has not deleted it yet) or deleted meanwhile: the key is free again.
      if (found) await deleteIdempotencyKey(trx, scope, keyHash);
    }
    const answer = await create({
      ...deps,
      store: { ...deps.store, db: trx },
      afterCommit: (effect) => effects.push(effect),
    });
    await storeIdempotentAnswer(trx, {
      scope,
      keyHash,
      status: answer.status,
      sealedAnswer: sealAnswer(seal, answer.body),
    });
    return { ...answer, replayed: false };
  });
  for (const effect of effects) await effect();
  return result;
}
