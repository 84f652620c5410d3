import type SqliteDatabase from 'better-sqlite3';
import {
  type CounterSpec,
  type CounterState,
  type CounterStore,
  type LeaseOutcome,
  leaseGrant,
  lessHits,
  releaseEntries,
  type TakeOutcome,
} from './counter-store.js';

/** How often ended windows are deleted, as in the SQL store. */
const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;

/** Thrown inside a transaction to roll it back while handing its counters out. */
class Undo {
  constructor(readonly counters: CounterState[]) {}
}

/**
 * The counter store of counter-store.ts over a better-sqlite3 handle of its own (the in-process
 * counters of Store.processCounters), with the same rules as the SQL store (sql-counter-store.ts)
 * but on the raw driver: every operation is one synchronous transaction of prepared statements,
 * so no other operation ever interleaves with it and none needs a group commit.
 */
export function createRawSqliteCounterStore(
  file: SqliteDatabase.Database,
  options: { housekeeping?: { clock: () => number } } = {},
): CounterStore {
  // Insert a window, or add to the live one, or restart an ended one; every SET expression reads
  // the row as it was before the statement (as in sql-counter-store.ts).
  const upsert = file.prepare<[string, number, number, number, number], { hits: number; window_end: number }>(
    `insert into limit_counters (key, hits, window_end) values (?, ?, ?)
     on conflict(key) do update set
       hits = case when limit_counters.window_end > ? then limit_counters.hits + excluded.hits else excluded.hits end,
       window_end = case when limit_counters.window_end > ? then limit_counters.window_end else excluded.window_end end
     returning hits, window_end`,
  );
  const takeOff = file.prepare<[number, string]>('update limit_counters set hits = hits - ? where key = ?');
  const drainRow = file.prepare<[string], { hits: number; window_end: number }>(
    'delete from limit_counters where key = ? returning hits, window_end',
  );
  const giveBack = file.prepare<[number, number, string, number]>(
    `update limit_counters set hits = case when hits > ? then hits - ? else 0 end
     where key = ? and window_end > ?`,
  );
  const giveBackTo = file.prepare<[number, number, string, number, number]>(
    `update limit_counters set hits = case when hits > ? then hits - ? else 0 end
     where key = ? and window_end > ? and window_end = ?`,
  );
  const peekRow = file.prepare<[string, number], { hits: number; window_end: number }>(
    'select hits, window_end from limit_counters where key = ? and window_end > ?',
  );
  const clearRow = file.prepare<[string]>('delete from limit_counters where key = ?');
  const sweep = file.prepare<[number]>('delete from limit_counters where window_end <= ?');

  /** Adds `cost` to every counter (in key order, as the SQL store locks them) and returns their states in spec order. */
  function addAll(specs: readonly CounterSpec[], now: number, cost: number): CounterState[] {
    const byKey = new Map<string, CounterState>();
    for (const spec of [...specs].sort((a, b) => (a.key < b.key ? -1 : 1))) {
      const row = upsert.get(spec.key, cost, spec.freshWindowEnd, now, now) as {
        hits: number;
        window_end: number;
      };
      byKey.set(spec.key, { hits: Number(row.hits), windowEnd: Number(row.window_end) });
    }
    return specs.map((spec) => byKey.get(spec.key) as CounterState);
  }

  const take = file.transaction(
    (specs: readonly CounterSpec[], now: number, cost: number): CounterState[] => {
      const counters = addAll(specs, now, cost);
      if (specs.some((spec, i) => spec.limit !== null && counters[i]!.hits > spec.limit))
        throw new Undo(counters);
      return counters;
    },
  );

  const lease = file.transaction((specs: readonly CounterSpec[], now: number, want: number): LeaseOutcome => {
    const counters = addAll(specs, now, want);
    const granted = leaseGrant(specs, counters, want);
    const excess = want - granted;
    const after = lessHits(counters, excess);
    if (granted === 0) throw new Undo(after);
    if (excess > 0) for (const spec of specs) takeOff.run(excess, spec.key);
    return { granted, counters: after };
  });

  const release = file.transaction((spec: Parameters<CounterStore['release']>[0], now: number) => {
    let drained = 0;
    if (spec.drain) {
      const row = drainRow.get(spec.drain.key);
      if (row && Number(row.window_end) > now) drained = Number(row.hits);
    }
    for (const entry of releaseEntries(spec)) {
      const give = entry.cost + (entry.drained ? drained : 0);
      if (give <= 0) continue;
      if (entry.windowEnd === null) giveBack.run(give, give, entry.key, now);
      else giveBackTo.run(give, give, entry.key, now, entry.windowEnd);
    }
  });

  let timer: NodeJS.Timeout | undefined;
  if (options.housekeeping) {
    const { clock } = options.housekeeping;
    timer = setInterval(() => {
      try {
        sweep.run(clock());
      } catch {
        // Retried at the next interval; an ended window is restarted by the next hit anyway.
      }
    }, HOUSEKEEPING_INTERVAL_MS);
    timer.unref();
  }

  return {
    async take(specs, now, cost = 1): Promise<TakeOutcome> {
      try {
        return { taken: true, counters: take.immediate(specs, now, cost) };
      } catch (err) {
        if (!(err instanceof Undo)) throw err;
        // Refused: the counts before this take.
        return {
          taken: false,
          counters: err.counters.map((c) => ({ hits: c.hits - cost, windowEnd: c.windowEnd })),
        };
      }
    },

    async lease(specs, now, want): Promise<LeaseOutcome> {
      try {
        return lease.immediate(specs, now, want);
      } catch (err) {
        if (!(err instanceof Undo)) throw err;
        return { granted: 0, counters: err.counters };
      }
    },

    async release(spec, now) {
      release.immediate(spec, now);
    },

    async peek(key, now) {
      const row = peekRow.get(key, now);
      return row ? { hits: Number(row.hits), windowEnd: Number(row.window_end) } : { hits: 0, windowEnd: 0 };
    },

    async clear(key) {
      clearRow.run(key);
    },

    async close() {
      if (timer) clearInterval(timer);
    },
  };
}
