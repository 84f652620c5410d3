import type { Passkey } from '../../domain/passkey.js';
import { CounterStoreUnavailable } from '../../store/counters/counter-store.js';
import type { ServiceDeps } from '../deps.js';
import { openDatabaseOutage } from '../health/report-database-outage.js';
import type { MaybePromise } from '../maybe-promise.js';
import { consumeAllowance } from './consume-allowance.js';
import { createCounterStore } from './create-counter-store.js';
import type { LimiterContext } from './lease.js';
import type { LimitDecision } from './limit-decision.js';
import { giveBack, startRenewal } from './renew-lease.js';

export interface PasskeyLimiter {
  /**
   * Charges one call: at once when the allowance this instance holds admits it, otherwise a
   * promise (nothing held, a renewal under way, or the numbers changed).
   */
  consume(passkey: Passkey): MaybePromise<LimitDecision>;
  close(): Promise<void>;
}

/**
 * Allowance idle for a lease period goes back, so other instances can use it; a passkey no
 * longer called is forgotten.
 */
function sweepIdleLeases(ctx: LimiterContext): NodeJS.Timeout {
  const { leases, leaseMs } = ctx;
  const sweeper = setInterval(() => {
    const now = ctx.clock();
    for (const [id, lease] of leases) {
      if (lease.renewal || now < lease.leasedAt + leaseMs) continue;
      const renewal = startRenewal(ctx, lease, async () => {
        await giveBack(ctx, id, lease, lease.unspent, now);
        return { kind: 'granted' };
      });
      void renewal.done.then((outcome) => {
        if (outcome.kind === 'unavailable') ctx.reportOutage(outcome.error);
        if (lease.unspent === 0 && !lease.renewal && lease.waiting === 0 && leases.get(id) === lease) {
          leases.delete(id);
        }
      });
    }
  }, leaseMs);
  sweeper.unref();
  return sweeper;
}

/** Gives back everything held, once the store calls under way have ended. */
async function releaseAll(ctx: LimiterContext): Promise<void> {
  const now = ctx.clock();
  await Promise.all(
    [...ctx.leases].map(async ([id, lease]) => {
      if (lease.renewal) await lease.renewal.done;
      try {
        await giveBack(ctx, id, lease, lease.unspent, now);
      } catch (err) {
        if (!(err instanceof CounterStoreUnavailable)) throw err;
        // Lost until its window ends: counted, never admitted.
        ctx.reportOutage(err);
      }
    }),
  );
  ctx.leases.clear();
}

/**
 * docs/interface.md §8 and §5.5: every call made with a passkey is charged to its rate limit (per
 * minute) and its quota (per day), with the numbers of the passkey row the request just loaded, so
 * a change made with `rpa passkeys update` applies from the next request on every instance.
 * Counters are keyed by passkey id (never the passkey itself) and policy, not by the numbers: a
 * changed limit is compared with what the current window already holds.
 *
 * Allowance is leased (docs/design.md, Limits): an instance adds a slice to both policies' counters
 * at once (CounterStore.lease, all or nothing) and admits calls from it in memory, so most calls
 * touch no shared store. Every admitted call was counted in the store before it was admitted, so
 * the instances together never admit more than a policy's number; what they hold unspent is
 * counted too and is given back after LIMIT_LEASE_MS, when the numbers change, and on close. The
 * price is under-admission: a call can be refused while other instances still hold unspent slices,
 * and the slice of an instance that dies unannounced stays counted until its window ends.
 */
export async function createPasskeyLimiter(deps: ServiceDeps): Promise<PasskeyLimiter> {
  const counters = await createCounterStore(deps, { housekeeping: true, durable: true });
  const { outages } = deps;
  const ctx: LimiterContext = {
    counters,
    outages,
    clock: deps.clock,
    leaseMs: deps.config.limitLeaseMs,
    failMode: deps.config.rateLimitFailMode,
    leases: new Map(),
    reportOutage: (error) =>
      error.dependency === 'database' ? openDatabaseOutage(deps, error.cause) : outages.down('redis', error),
  };
  const sweeper = sweepIdleLeases(ctx);
  return {
    consume: (passkey) => consumeAllowance(ctx, passkey),
    async close() {
      clearInterval(sweeper);
      await releaseAll(ctx);
      await counters.close();
    },
  };
}
