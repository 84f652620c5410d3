import {
  type CounterSpec,
  type CounterState,
  type CounterStore,
  type ImmediateCounterOperations,
  leaseOutcome,
  type ReleaseSpec,
  releaseGifts,
  type TakeOutcome,
  takeOutcome,
  withinLimits,
} from './counter-store.js';
import { type CounterStoreOptions, startCounterHousekeeping } from './start-counter-housekeeping.js';

/** The counters themselves, by key: shared by every store made over them (Store.processCounters). */
export type MemoryCounters = Map<string, { hits: number; windowEnd: number }>;

/** What each counter holds once `cost` is added: the live window grows, an ended one restarts. */
function added(
  counters: MemoryCounters,
  specs: readonly CounterSpec[],
  now: number,
  cost: number,
): CounterState[] {
  return specs.map((spec) => {
    const row = counters.get(spec.key);
    return row && row.windowEnd > now
      ? { hits: row.hits + cost, windowEnd: row.windowEnd }
      : { hits: cost, windowEnd: spec.freshWindowEnd };
  });
}

function store(
  counters: MemoryCounters,
  specs: readonly CounterSpec[],
  states: readonly CounterState[],
): void {
  specs.forEach((spec, i) => {
    const { hits, windowEnd } = states[i]!;
    counters.set(spec.key, { hits, windowEnd });
  });
}

/** A live window gives hits back, never below zero; with `windowEnd`, only the window ending then. */
function giveBack(
  counters: MemoryCounters,
  key: string,
  give: number,
  now: number,
  windowEnd: number | null,
): void {
  const row = counters.get(key);
  if (!row || row.windowEnd <= now || (windowEnd !== null && row.windowEnd !== windowEnd)) return;
  row.hits = row.hits > give ? row.hits - give : 0;
}

/** Take and release over the Map, each run to its end before returning. */
function immediateOperations(counters: MemoryCounters): ImmediateCounterOperations {
  function take(specs: readonly CounterSpec[], now: number, cost = 1, then?: ReleaseSpec): TakeOutcome {
    const after = added(counters, specs, now, cost);
    // Refused: nothing changes, and the answer is the counts before this take.
    if (!withinLimits(specs, after)) return takeOutcome(false, after, cost);
    store(counters, specs, after);
    if (then) release(then, now);
    return takeOutcome(true, after, cost);
  }

  function release(spec: ReleaseSpec, now: number): void {
    let drained = 0;
    if (spec.drain) {
      const row = counters.get(spec.drain.key);
      counters.delete(spec.drain.key);
      if (row && row.windowEnd > now) drained = row.hits;
    }
    for (const { key, give, windowEnd } of releaseGifts(spec, drained)) {
      giveBack(counters, key, give, now, windowEnd);
    }
  }

  return { take, release };
}

/**
 * The counter store of counter-store.ts over a Map in this process (the in-process counters of
 * Store.processCounters), with the same rules as the SQL store (sql-counter-store.ts). Every
 * operation runs to its end without yielding, so none interleaves with another and each is atomic
 * the way a transaction is there.
 */
export function createMemoryCounterStore(
  counters: MemoryCounters,
  options: CounterStoreOptions = {},
): CounterStore {
  const immediate = immediateOperations(counters);
  const stopHousekeeping = startCounterHousekeeping(options, (now) => {
    for (const [key, row] of counters) if (row.windowEnd <= now) counters.delete(key);
  });

  return {
    async take(specs, now, cost = 1, then) {
      return immediate.take(specs, now, cost, then);
    },

    async lease(specs, now, want) {
      const outcome = leaseOutcome(specs, added(counters, specs, now, want), want);
      if (outcome.granted > 0) store(counters, specs, outcome.counters);
      return outcome;
    },

    async release(spec, now) {
      immediate.release(spec, now);
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
      stopHousekeeping();
    },

    immediate,
  };
}
