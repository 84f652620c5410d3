import type { FailMode } from '../../config.js';
import type { Passkey } from '../../domain/passkey.js';
import type { CounterStore, CounterStoreUnavailable } from '../../store/counters/counter-store.js';
import type { Clock } from '../deps.js';
import type { OutageLog } from '../health/create-outage-log.js';

/** How one renewal of a passkey's lease ended, for the calls that waited on it. */
export type RenewalOutcome =
  | { readonly kind: 'granted' }
  /** The store granted less than was asked: some policy had nothing more. */
  | { readonly kind: 'exhausted' }
  | { readonly kind: 'unavailable'; readonly error: CounterStoreUnavailable }
  | { readonly kind: 'failed'; readonly error: unknown };

export interface Renewal {
  readonly done: Promise<RenewalOutcome>;
}

/** What this instance holds of one passkey's allowance, and what it knew of the store then. */
export interface Lease {
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

/** What the parts of one passkey limiter share. */
export interface LimiterContext {
  readonly counters: CounterStore;
  readonly outages: OutageLog;
  readonly clock: Clock;
  /** LIMIT_LEASE_MS: how long leased allowance is spent from before it is renewed or given back. */
  readonly leaseMs: number;
  readonly failMode: FailMode;
  /** By passkey id. */
  readonly leases: Map<string, Lease>;
  /** A database the copy of the counters could not be written to is probed until it answers. */
  readonly reportOutage: (error: CounterStoreUnavailable) => void;
}

export function newLease(now: number): Lease {
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

/** Whether the allowance was leased under the passkey's numbers as they are now. */
export const leaseMatches = (lease: Lease, passkey: Passkey) =>
  lease.ratePerMinute === passkey.ratePerMinute && lease.quotaPerDay === passkey.quotaPerDay;

/** When the first of the windows the allowance belongs to ends. */
export const windowsEnd = (lease: Lease) => Math.min(...lease.windowEnds);

/** Starts a new lease period once the current one has lasted `leaseMs`. */
export function rollPeriod(lease: Lease, now: number, leaseMs: number): void {
  if (now < lease.periodStart + leaseMs) return;
  lease.spentLastPeriod = now < lease.periodStart + 2 * leaseMs ? lease.spentInPeriod : 0;
  lease.spentInPeriod = 0;
  lease.periodStart = now;
}
