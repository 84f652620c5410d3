/**
 * Fixed-window counters shared by every instance: the storage under the passkey limiter and the
 * client-authentication throttle. A counter's window starts when it is first hit after the
 * previous one ended, and ends at the `freshWindowEnd` the caller gave for that hit; callers that
 * align windows (passkey policies) pass the aligned end, callers that count from the first event
 * (failed logins) pass now + window.
 *
 * Time is the calling instance's clock, so instances keep theirs synchronised (NTP). A skew only
 * moves where a window starts: the instance running ahead restarts the shared counter early and
 * the others then count into that window; no window ever holds more hits than its limit.
 */

export interface CounterSpec {
  /**
   * Counter key. Keys taken together share a `{group}` (a Redis Cluster hash tag), e.g.
   * `{pk:ID}:minute` and `{pk:ID}:day`, so one script can update them atomically.
   */
  readonly key: string;
  /** Most hits the window may hold; null counts without a ceiling. */
  readonly limit: number | null;
  /** Epoch ms at which a window that starts with this hit ends; must be later than now. */
  readonly freshWindowEnd: number;
}

export interface CounterState {
  /** Hits in the live window: after the take when taken, before it otherwise. */
  readonly hits: number;
  /** End of the live window (epoch ms); for a counter with no live window, the fresh end asked for. */
  readonly windowEnd: number;
}

export interface TakeOutcome {
  readonly taken: boolean;
  /** One state per spec, in the order given. */
  readonly counters: readonly CounterState[];
}

export interface LeaseOutcome {
  /** Hits added to every counter: the most that each policy still allowed, up to the amount asked. */
  readonly granted: number;
  /** One state per spec, in the order given, after the grant. */
  readonly counters: readonly CounterState[];
}

/** Hits given back at once: leased allowance not spent, a take that does not count after all. */
export interface ReleaseSpec {
  /**
   * Counters that give hits back, and how many each. With `windowEnd`, only the window that ends
   * then gives back: hits leased in a window that has since been restarted lapsed with it, and
   * giving them back to the new one would let it admit more than its limit.
   */
  readonly counters: readonly { readonly key: string; readonly cost: number; readonly windowEnd?: number }[];
  /** A counter to forget; each of `alsoFrom` gives back the hits its live window held as well. */
  readonly drain?: { readonly key: string; readonly alsoFrom: readonly string[] };
}

/** The `{group}` a key belongs to (CounterSpec.key), or the key itself when it names none. */
export const groupOf = (key: string): string => /^\{[^}]*\}/.exec(key)?.[0] ?? key;

/** What each counter of a release gives back: its cost, plus the drained hits when `drained`. */
export function releaseEntries(
  spec: ReleaseSpec,
): { key: string; cost: number; drained: boolean; windowEnd: number | null }[] {
  const entries = new Map<
    string,
    { key: string; cost: number; drained: boolean; windowEnd: number | null }
  >();
  for (const { key, cost, windowEnd } of spec.counters) {
    entries.set(key, { key, cost, drained: false, windowEnd: windowEnd ?? null });
  }
  for (const key of spec.drain?.alsoFrom ?? []) {
    const known = entries.get(key);
    entries.set(key, { key, cost: known?.cost ?? 0, drained: true, windowEnd: known?.windowEnd ?? null });
  }
  return [...entries.values()];
}

/**
 * The hits each counter of a release gives back, once the drained counter's live window was found
 * to hold `drainedHits`; counters that give nothing back are left out.
 */
export function releaseGifts(
  spec: ReleaseSpec,
  drainedHits: number,
): { key: string; give: number; windowEnd: number | null }[] {
  // A loop, not flatMap: a successful token request releases through here (the failure
  // throttle), and flatMap's array per entry showed in its instruction count.
  const gifts: { key: string; give: number; windowEnd: number | null }[] = [];
  for (const { key, cost, drained, windowEnd } of releaseEntries(spec)) {
    const give = cost + (drained ? drainedHits : 0);
    if (give > 0) gifts.push({ key, give, windowEnd });
  }
  return gifts;
}

/** The hits each counter held before `cost` was added to it. */
function lessHits(counters: readonly CounterState[], cost: number): CounterState[] {
  return counters.map((c) => ({ hits: c.hits - cost, windowEnd: c.windowEnd }));
}

/** Whether every counter stays within its limit (`counters` after the addition, in spec order). */
export function withinLimits(specs: readonly CounterSpec[], counters: readonly CounterState[]): boolean {
  return specs.every((spec, i) => spec.limit === null || counters[i]!.hits <= spec.limit);
}

/** A take's answer: the counters as it left them, or as they were before it when it was refused. */
export function takeOutcome(taken: boolean, counters: CounterState[], cost: number): TakeOutcome {
  return taken ? { taken, counters } : { taken, counters: lessHits(counters, cost) };
}

/**
 * A lease's answer once `want` has been added to every counter (`counters` after the addition):
 * it grants the least of `want` and what each limit still allowed, never below zero, and its
 * counters hold only what it granted.
 */
export function leaseOutcome(
  specs: readonly CounterSpec[],
  counters: readonly CounterState[],
  want: number,
): LeaseOutcome {
  let granted = want;
  specs.forEach((spec, i) => {
    if (spec.limit !== null) granted = Math.min(granted, spec.limit - (counters[i]!.hits - want));
  });
  granted = Math.max(0, granted);
  return { granted, counters: lessHits(counters, want - granted) };
}

export interface CounterStore {
  /**
   * All or nothing: adds `cost` to every counter when each stays within its limit, otherwise
   * changes none of them. A refused take therefore never uses up another policy's allowance.
   * When taken, `then` is released in the same atomic step (its keys share the specs' `{group}`);
   * the outcome's counters are as the take left them, before `then`.
   */
  take(specs: readonly CounterSpec[], now: number, cost?: number, then?: ReleaseSpec): Promise<TakeOutcome>;
  /**
   * Allowance in advance, all or nothing across the counters: grants g = the least of `want` and
   * what each counter's limit still allows (0 when any is exhausted, or over its limit after a
   * lowered one) and adds g to every counter in one atomic step. The holder spends g on its own
   * and gives back what it did not spend with `release` (naming the window it leased in).
   */
  lease(specs: readonly CounterSpec[], now: number, want: number): Promise<LeaseOutcome>;
  /**
   * Atomically forgets the `drain` counter and gives hits back from the live windows of the others,
   * never below zero. An ended window is left alone: the hits it held have lapsed anyway. Keys of
   * one release share a `{group}`, as in take, and the drained counter is not one of `counters`.
   */
  release(spec: ReleaseSpec, now: number): Promise<void>;
  /** Hits in the live window of one counter (0 when it has none; windowEnd is then 0). */
  peek(key: string, now: number): Promise<CounterState>;
  /** Forgets a counter. */
  clear(key: string): Promise<void>;
  close(): Promise<void>;
  /**
   * take and release answered at once, without a promise: present only where the counters live
   * in this process (memory-counter-store.ts), so a hot path can finish within its turn of the
   * event loop instead of waiting for the next.
   */
  readonly immediate?: ImmediateCounterOperations;
}

/** The store's own take and release, run to their end before returning. */
export interface ImmediateCounterOperations {
  take(specs: readonly CounterSpec[], now: number, cost?: number, then?: ReleaseSpec): TakeOutcome;
  release(spec: ReleaseSpec, now: number): void;
}

/**
 * The shared counter store (Redis) could not be reached. What the request does then is
 * RATE_LIMIT_FAIL_MODE's choice; SQL store errors are not wrapped: the database serves the request
 * itself, so without it there is nothing to serve.
 */
export class CounterStoreUnavailable extends Error {
  /**
   * @param dependency what could not serve: Redis, or the database that keeps a copy of its
   *   counters (durable-counter-store.ts).
   */
  constructor(
    cause: unknown,
    readonly dependency: 'redis' | 'database' = 'redis',
  ) {
    super(`limit counters unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'CounterStoreUnavailable';
  }
}
