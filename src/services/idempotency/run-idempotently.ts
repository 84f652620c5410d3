import type { ServiceDeps } from '../deps.js';
import { createOnce, type IdempotentRequest } from './create-once.js';

/** What a create answered: its status and body, as the HTTP layer sends them. */
export interface IdempotentAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * Runs a create made of services that commit on their own at most once per Idempotency-Key
 * (create-once.ts), keeping its whole answer: the services run in one transaction with the key's
 * record (their `inTransaction` joins it), and what they do after their commit (tell other
 * instances of a change) runs once that transaction has committed.
 */
export async function runIdempotently(
  deps: ServiceDeps,
  request: IdempotentRequest,
  create: (deps: ServiceDeps) => Promise<IdempotentAnswer>,
): Promise<IdempotentAnswer & { readonly replayed: boolean }> {
  if (request.key === undefined) return { ...(await create(deps)), replayed: false };
  const effects: (() => Promise<void>)[] = [];
  const { value, replayed } = await createOnce<IdempotentAnswer, IdempotentAnswer>(
    deps,
    request,
    (claim) =>
      deps.store.db.transaction().execute(async (trx) => {
        const answer = await create({
          ...deps,
          store: { ...deps.store, db: trx },
          afterCommit: (effect) => effects.push(effect),
        });
        await claim?.(trx, answer, answer.status);
        return answer;
      }),
    async (kept) => kept,
  );
  // A replay's own attempt, if it ran, was rolled back: what it queued never happened.
  if (!replayed) for (const effect of effects) await effect();
  return { ...value, replayed };
}
