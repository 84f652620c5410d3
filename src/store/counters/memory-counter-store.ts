import {
  type CounterSpec,
  type CounterState,
  type CounterStore,
  type LeaseOutcome,
  leaseGrant,
  lessHits,
  type ReleaseSpec,
  releaseEntries,
  type TakeOutcome,
} from './counter-store.js';

/** The counters themselves, by key: shared by every store made over them (Store.processCounters). */
export type MemoryCounters = Map<string, { hits: number; windowEnd: number }>;

/** How often ended windows are deleted, as in the SQL store. */
const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;

/**
 * The counter store of counter-store.ts over a Map in this process (the in-process counters of
 * Store.processCounters), with the same rules as the SQL store (sql-counter-store.ts). Every
 * operation runs to its end without yielding, so none interleaves with another and each is atomic
 * the way a transaction is there.
 */
export function createMemoryCounterStore(
  counters: MemoryCounters,
  options: { housekeeping?: { clock: () => number } } = {},
): CounterStore {
  /** What each counter holds once `cost` is added: the live window grows, an ended one restarts. */
  function added(specs: readonly CounterSpec[], now: number, cost: number): CounterState[] {
    return specs.map((spec) => {
      const row = counters.get(spec.key);
      return row && row.windowEnd > now
        ? { hits: row.hits + cost, windowEnd: row.windowEnd }
        : { hits: cost, windowEnd: spec.freshWindowEnd };
    });
  }

  function store(specs: readonly CounterSpec[], states: readonly CounterState[]): void {
    specs.forEach((spec, i) => {
      const { hits, windowEnd } = states[i]!;
      counters.set(spec.key, { hits, windowEnd });
    });
  }

  /** A live window gives hits back, never below zero; with `windowEnd`, only the window ending then. */
  function giveBack(key: string, give: number, now: number, windowEnd: number | null): void {
    const row = counters.get(key);
    if (!row || row.windowEnd <= now || (windowEnd !== null && row.windowEnd !== windowEnd)) return;
    row.hits = row.hits > give ? row.hits - give : 0;
  }

  function take(specs: readonly CounterSpec[], now: number, cost = 1, then?: ReleaseSpec): TakeOutcome {
    const after = added(specs, now, cost);
    if (specs.some((spec, i) => spec.limit !== null && after[i]!.hits > spec.limit)) {
      // Refused: nothing changes, and the answer is the counts before this take.
      return { taken: false, counters: lessHits(after, cost) };
    }
    store(specs, after);
    if (then) release(then, now);
    return { taken: true, counters: after };
  }

  function release(spec: ReleaseSpec, now: number): void {
    let drained = 0;
    if (spec.drain) {
      const row = counters.get(spec.drain.key);
      counters.delete(spec.drain.key);
      if (row && row.windowEnd > now) drained = row.hits;
    }
    for (const entry of releaseEntries(spec)) {
      const give = entry.cost + (entry.drained ? drained : 0);
      if (give > 0) giveBack(entry.key, give, now, entry.windowEnd);
    }
  }

  let timer: NodeJS.Timeout | undefined;
  if (options.housekeeping) {
    const { clock } = options.housekeeping;
    timer = setInterval(() => {
      const now = clock();
      for (const [key, row] of counters) if (row.windowEnd <= now) counters.delete(key);
    }, HOUSEKEEPING_INTERVAL_MS);
    timer.unref();
  }

  return {
    async take(specs, now, cost = 1, then): Promise<TakeOutcome> {
      return take(specs, now, cost, then);
    },

    async lease(specs, now, want): Promise<LeaseOutcome> {
      const after = added(specs, now, want);
      const granted = leaseGrant(specs, after, want);
      const held = lessHits(after, want - granted);
      if (granted > 0) store(specs, held);
      return { granted, counters: held };
    },

    async release(spec, now) {
      release(spec, now);
    },

    async peek(key, now) {
      const row = counters.get(key);
      return row && row.windowEnd > now
        ? { hits: row.hits, windowEnd: row.windowEnd }
        : { hits: 0, windowEnd: 0 };
    },

    async clear(key) {
      counters.delete(key);
    },

    async close() {
      if (timer) clearInterval(timer);
    },

    immediate: { take, release },
  };
}
