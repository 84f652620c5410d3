import type { Passkey } from '../../domain/passkey.js';
import { alignedWindowEnd, passkeyPolicies, type QuotaPolicy } from '../../domain/quota-policy.js';
import { CounterStoreUnavailable } from '../../store/counters/counter-store.js';
import {
  type Lease,
  type LimiterContext,
  leaseMatches,
  type Renewal,
  type RenewalOutcome,
  rollPeriod,
  windowsEnd,
} from './lease.js';

/**
 * Allowance leased ahead of demand is at most this fraction of what the policies have left, so
 * that instances sharing a passkey near its limit share the remainder rather than one holding it.
 */
const SHARE_DIVISOR = 4;

const counterKey = (passkeyId: string, policy: QuotaPolicy) => `{pk:${passkeyId}}:${policy.name}`;

/**
 * Gives unspent allowance back to the windows it was leased in; they may have ended since. It
 * stops being held before the store is asked: a release that fails, or times out, may still have
 * run in the store, and spending the allowance then could admit more than the policy.
 */
export async function giveBack(
  ctx: LimiterContext,
  passkeyId: string,
  lease: Lease,
  amount: number,
  now: number,
): Promise<void> {
  if (amount <= 0) return;
  lease.unspent -= amount;
  if (now >= windowsEnd(lease)) return;
  const policies = passkeyPolicies(lease);
  await ctx.counters.release(
    {
      counters: policies.map((p, i) => ({
        key: counterKey(passkeyId, p),
        cost: amount,
        windowEnd: lease.windowEnds[i]!,
      })),
    },
    now,
  );
  lease.hits = lease.hits.map((h) => h - amount);
}

/**
 * Tops the lease up to what demand asks for: the calls waiting now, or what the previous lease
 * period (or this one so far) spent, bounded by a share of what remains, whichever is more.
 * Allowance still held in its windows counts towards it; only the difference goes to the store,
 * or back to it.
 */
export async function renewLease(
  ctx: LimiterContext,
  passkey: Passkey,
  lease: Lease,
  now: number,
): Promise<RenewalOutcome> {
  const policies = passkeyPolicies(passkey);
  let carried = lease.unspent;
  if (carried > 0 && (!leaseMatches(lease, passkey) || now >= windowsEnd(lease))) {
    // Leased under other numbers, or in windows that have ended: what the new numbers allow is
    // decided by the store alone.
    await giveBack(ctx, passkey.id, lease, carried, now);
    carried = 0;
  }
  lease.ratePerMinute = passkey.ratePerMinute;
  lease.quotaPerDay = passkey.quotaPerDay;
  rollPeriod(lease, now, ctx.leaseMs);
  const known = lease.hits.length
    ? Math.min(...policies.map((p, i) => p.quota - lease.hits[i]!)) + carried
    : Number.POSITIVE_INFINITY;
  // Demand is what the previous period spent, or, while it is still growing (a cold start, a
  // burst), what this period has spent so far: slices then double from one renewal to the next
  // instead of covering the calls waiting at the moment, one store write each.
  const demand = Math.max(lease.spentLastPeriod, lease.spentInPeriod);
  const ahead = Math.min(demand, Math.max(1, Math.floor(known / SHARE_DIVISOR)));
  const want = Math.max(1 + lease.waiting, ahead);
  if (carried >= want) {
    await giveBack(ctx, passkey.id, lease, carried - want, now);
    lease.leasedAt = now;
    return { kind: 'granted' };
  }
  const asked = want - carried;
  const outcome = await ctx.counters.lease(
    policies.map((p) => ({
      key: counterKey(passkey.id, p),
      limit: p.quota,
      freshWindowEnd: alignedWindowEnd(now, p.windowSeconds),
    })),
    now,
    asked,
  );
  // The lease was counted, and, when something was granted, copied where the counters keep a
  // copy: a grant of nothing writes nothing there, so it says nothing of the database.
  ctx.outages.up('redis');
  if (outcome.granted > 0) ctx.outages.up('database');
  lease.unspent = carried + outcome.granted;
  lease.hits = outcome.counters.map((c) => c.hits);
  lease.windowEnds = outcome.counters.map((c) => c.windowEnd);
  lease.leasedAt = now;
  return outcome.granted < asked ? { kind: 'exhausted' } : { kind: 'granted' };
}

/** Runs `work` as the passkey's one store call in flight; settles rather than rejects. */
export function startRenewal(
  ctx: LimiterContext,
  lease: Lease,
  work: () => Promise<RenewalOutcome>,
): Renewal {
  const renewal: Renewal = {
    done: work()
      .catch((error: unknown): RenewalOutcome => {
        if (error instanceof CounterStoreUnavailable) {
          // A lease already held goes on serving until spent: the store has counted it.
          if (lease.unspent > 0) lease.leasedAt = ctx.clock();
          return { kind: 'unavailable', error };
        }
        return { kind: 'failed', error };
      })
      .finally(() => {
        if (lease.renewal === renewal) lease.renewal = null;
      }),
  };
  lease.renewal = renewal;
  return renewal;
}
