import type { Passkey } from '../../domain/passkey.js';
import type { QuotaPolicy } from '../../domain/quota-policy.js';
import { alignedWindowEnd, passkeyPolicies, secondsUntil } from '../../domain/quota-policy.js';
import { formatRateLimit, formatRateLimitPolicy, type ServiceLimit } from '../../domain/ratelimit-fields.js';
import { AppError, DEPENDENCY_RETRY_AFTER_SECONDS } from '../../errors.js';
import { type CounterStore, CounterStoreUnavailable } from '../../store/counters/counter-store.js';
import type { ServiceDeps } from '../deps.js';
import { openDatabaseOutage } from '../health/report-database-outage.js';
import { createCounterStore } from './create-counter-store.js';

/** The outcome of charging one call to a passkey's rate limit and quota (docs/interface.md §8). */
export interface LimitDecision {
  readonly allowed: boolean;
  /** IETF RateLimit-Policy / RateLimit fields (and Retry-After when refused). */
  readonly headers: Readonly<Record<string, string>>;
  readonly exceeded?: 'rate' | 'quota';
  readonly retryAfterSeconds?: number;
}

export interface PasskeyLimiter {
  consume(passkey: Passkey): Promise<LimitDecision>;
  /**
   * consume() answered from the allowance this instance holds: an admission, or undefined when
   * consume() must be asked (nothing held, a renewal under way, or the numbers changed).
   */
  consumeHeld(passkey: Passkey): LimitDecision | undefined;
  close(): Promise<void>;
}

/**
 * Allowance leased ahead of demand is at most this fraction of what the policies have left, so
 * that instances sharing a passkey near its limit share the remainder rather than one holding it.
 */
const SHARE_DIVISOR = 4;

/** How one renewal of a passkey's lease ended, for the calls that waited on it. */
type RenewalOutcome =
  | { readonly kind: 'granted' }
  /** The store granted less than was asked: some policy had nothing more. */
  | { readonly kind: 'exhausted' }
  | { readonly kind: 'unavailable'; readonly error: CounterStoreUnavailable }
  | { readonly kind: 'failed'; readonly error: unknown };

interface Renewal {
  readonly done: Promise<RenewalOutcome>;
}

/** What this instance holds of one passkey's allowance, and what it knew of the store then. */
interface Lease {
  /** The passkey's numbers the allowance was leased under. */
  ratePerMinute: number;
  quotaPerDay: number;
  /** Allowance leased and not yet spent: counted in the store, not yet admitted. */
  unspent: number;
  /** Per policy: hits in the store after the last lease (this instance's unspent included). */
  hits: number[];
  /** Per policy: end of the window the allowance belongs to. */
  windowEnds: number[];
  leasedAt: number;
  /** The one store call in flight for this passkey; calls arriving meanwhile wait on it. */
  renewal: Renewal | null;
  /** Calls waiting on `renewal`. */
  waiting: number;
  /** Calls admitted in the current and in the previous lease period: the demand estimate. */
  periodStart: number;
  spentInPeriod: number;
  spentLastPeriod: number;
}

/** A passkey's policies and the RateLimit-Policy field that advertises them. */
interface Described {
  readonly policies: readonly QuotaPolicy[];
  readonly policyField: string;
}

const counterKey = (passkeyId: string, policy: QuotaPolicy) => `{pk:${passkeyId}}:${policy.name}`;

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
  const counters: CounterStore = await createCounterStore(deps, { housekeeping: true, durable: true });
  const { outages } = deps;
  /** A database the copy of the counters could not be written to is probed until it answers. */
  const reportOutage = (error: CounterStoreUnavailable) =>
    error.dependency === 'database' ? openDatabaseOutage(deps, error.cause) : outages.down('redis', error);
  const failMode = deps.config.rateLimitFailMode;
  const leaseMs = deps.config.limitLeaseMs;
  const leases = new Map<string, Lease>();

  const policiesOf = (lease: Lease) => passkeyPolicies(lease);
  const windowsEnd = (lease: Lease) => Math.min(...lease.windowEnds);
  const matches = (lease: Lease, passkey: Passkey) =>
    lease.ratePerMinute === passkey.ratePerMinute && lease.quotaPerDay === passkey.quotaPerDay;

  function rollPeriod(lease: Lease, now: number): void {
    if (now < lease.periodStart + leaseMs) return;
    lease.spentLastPeriod = now < lease.periodStart + 2 * leaseMs ? lease.spentInPeriod : 0;
    lease.spentInPeriod = 0;
    lease.periodStart = now;
  }

  /**
   * Gives unspent allowance back to the windows it was leased in; they may have ended since. It
   * stops being held before the store is asked: a release that fails, or times out, may still have
   * run in the store, and spending the allowance then could admit more than the policy.
   */
  async function giveBack(passkeyId: string, lease: Lease, amount: number, now: number): Promise<void> {
    if (amount <= 0) return;
    lease.unspent -= amount;
    if (now >= windowsEnd(lease)) return;
    const policies = policiesOf(lease);
    await counters.release(
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
  async function renew(passkey: Passkey, lease: Lease, now: number): Promise<RenewalOutcome> {
    const policies = passkeyPolicies(passkey);
    let carried = lease.unspent;
    if (carried > 0 && (!matches(lease, passkey) || now >= windowsEnd(lease))) {
      // Leased under other numbers, or in windows that have ended: what the new numbers allow is
      // decided by the store alone.
      await giveBack(passkey.id, lease, carried, now);
      carried = 0;
    }
    lease.ratePerMinute = passkey.ratePerMinute;
    lease.quotaPerDay = passkey.quotaPerDay;
    rollPeriod(lease, now);
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
      await giveBack(passkey.id, lease, carried - want, now);
      lease.leasedAt = now;
      return { kind: 'granted' };
    }
    const asked = want - carried;
    const outcome = await counters.lease(
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
    outages.up('redis');
    if (outcome.granted > 0) outages.up('database');
    lease.unspent = carried + outcome.granted;
    lease.hits = outcome.counters.map((c) => c.hits);
    lease.windowEnds = outcome.counters.map((c) => c.windowEnd);
    lease.leasedAt = now;
    return outcome.granted < asked ? { kind: 'exhausted' } : { kind: 'granted' };
  }

  /** Runs `work` as the passkey's one store call in flight; settles rather than rejects. */
  function startRenewal(lease: Lease, work: () => Promise<RenewalOutcome>): Renewal {
    const renewal: Renewal = {
      done: work()
        .catch((error: unknown): RenewalOutcome => {
          if (error instanceof CounterStoreUnavailable) {
            // A lease already held goes on serving until spent: the store has counted it.
            if (lease.unspent > 0) lease.leasedAt = deps.clock();
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

  function limitsOf(lease: Lease, policies: readonly QuotaPolicy[], now: number): ServiceLimit[] {
    return policies.map((policy, i) => ({
      policy,
      remaining: policy.quota - lease.hits[i]! + lease.unspent,
      resetSeconds: secondsUntil(lease.windowEnds[i]!, now),
    }));
  }

  function refusal(lease: Lease, { policies, policyField }: Described, now: number): LimitDecision {
    const limits = limitsOf(lease, policies, now);
    const headers = {
      'ratelimit-policy': policyField,
      ratelimit: formatRateLimit(limits),
    };
    const exhausted = limits.filter((l) => l.remaining < 1);
    // draft-ietf-httpapi-ratelimit-headers-11 §6: Retry-After no earlier than the end of the
    // effective window, i.e. the latest end among the exhausted policies.
    const retryAfterSeconds = Math.max(1, ...exhausted.map((l) => l.resetSeconds));
    return {
      allowed: false,
      headers: { ...headers, 'retry-after': String(retryAfterSeconds) },
      exceeded: exhausted.some((l) => l.policy.name === 'day') ? 'quota' : 'rate',
      retryAfterSeconds,
    };
  }

  function unavailable(error: CounterStoreUnavailable, policyField: string): LimitDecision {
    reportOutage(error);
    // Open: the call is served uncounted; the policy is still advertised, the remaining
    // allowance (RateLimit) is not, as it is unknown.
    if (failMode === 'open') return { allowed: true, headers: { 'ratelimit-policy': policyField } };
    // Closed (default): the limits are part of the contract with partners, and an outage of
    // the counters must not lift them; 503 says the refusal is the server's, not the caller's.
    throw new AppError('SERVICE_UNAVAILABLE', {
      detail: 'rate limits cannot be checked right now',
      cause: error.cause,
      headers: {
        'ratelimit-policy': policyField,
        'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS),
      },
    });
  }

  function newLease(now: number): Lease {
    return {
      ratePerMinute: 0,
      quotaPerDay: 0,
      unspent: 0,
      hits: [],
      windowEnds: [],
      leasedAt: now,
      renewal: null,
      waiting: 0,
      periodStart: now,
      spentInPeriod: 0,
      spentLastPeriod: 0,
    };
  }

  /**
   * Allowance idle for a lease period goes back, so other instances can use it; a passkey no
   * longer called is forgotten.
   */
  const sweeper = setInterval(() => {
    const now = deps.clock();
    for (const [id, lease] of leases) {
      if (lease.renewal || now < lease.leasedAt + leaseMs) continue;
      const renewal = startRenewal(lease, async () => {
        await giveBack(id, lease, lease.unspent, now);
        return { kind: 'granted' };
      });
      void renewal.done.then((outcome) => {
        if (outcome.kind === 'unavailable') reportOutage(outcome.error);
        if (lease.unspent === 0 && !lease.renewal && lease.waiting === 0 && leases.get(id) === lease) {
          leases.delete(id);
        }
      });
    }
  }, leaseMs);
  sweeper.unref();

  /**
   * A passkey's policies and their RateLimit-Policy field, made once per passkey object: the
   * tenancy cache hands every call the same (immutable) object until the passkey changes, and
   * formatting the field anew (with its names quoted anew) made a charge about twice as costly,
   * in a loop (bench/results/history.md, GET author).
   */
  const descriptions = new WeakMap<Passkey, Described>();
  function describe(passkey: Passkey): Described {
    let found = descriptions.get(passkey);
    if (!found) {
      const policies = passkeyPolicies(passkey);
      found = { policies, policyField: formatRateLimitPolicy(policies) };
      descriptions.set(passkey, found);
    }
    return found;
  }

  /** Admits one call from the allowance the lease holds, if it holds any that counts now. */
  function spend(
    lease: Lease,
    passkey: Passkey,
    now: number,
    described: Described,
  ): LimitDecision | undefined {
    if (!matches(lease, passkey) || lease.unspent <= 0) return undefined;
    if (now >= windowsEnd(lease) || now >= lease.leasedAt + leaseMs) return undefined;
    lease.unspent -= 1;
    rollPeriod(lease, now);
    lease.spentInPeriod += 1;
    const headers = {
      'ratelimit-policy': described.policyField,
      ratelimit: formatRateLimit(limitsOf(lease, described.policies, now)),
    };
    return { allowed: true, headers };
  }

  return {
    consumeHeld(passkey) {
      const lease = leases.get(passkey.id);
      return lease && !lease.renewal ? spend(lease, passkey, deps.clock(), describe(passkey)) : undefined;
    },

    async consume(passkey): Promise<LimitDecision> {
      const described = describe(passkey);
      let waitedOn: RenewalOutcome | null = null;
      for (;;) {
        const now = deps.clock();
        let lease = leases.get(passkey.id);
        if (!lease) {
          lease = newLease(now);
          leases.set(passkey.id, lease);
        }
        if (lease.renewal) {
          lease.waiting += 1;
          try {
            waitedOn = await lease.renewal.done;
          } finally {
            lease.waiting -= 1;
          }
          continue;
        }
        const admitted = spend(lease, passkey, now, described);
        if (admitted) return admitted;
        const current = matches(lease, passkey);
        if (waitedOn) {
          // The store call this call waited on (its own or another's) left nothing for it.
          if (waitedOn.kind === 'unavailable') return unavailable(waitedOn.error, described.policyField);
          if (waitedOn.kind === 'failed') throw waitedOn.error;
          if (waitedOn.kind === 'exhausted' && current) return refusal(lease, described, now);
        }
        const held = lease;
        // The loop then spends what the renewal brought, if anything.
        waitedOn = await startRenewal(held, () => renew(passkey, held, now)).done;
      }
    },

    async close() {
      clearInterval(sweeper);
      const now = deps.clock();
      await Promise.all(
        [...leases].map(async ([id, lease]) => {
          if (lease.renewal) await lease.renewal.done;
          try {
            await giveBack(id, lease, lease.unspent, now);
          } catch (err) {
            if (!(err instanceof CounterStoreUnavailable)) throw err;
            // Lost until its window ends: counted, never admitted.
            reportOutage(err);
          }
        }),
      );
      leases.clear();
      await counters.close();
    },
  };
}
