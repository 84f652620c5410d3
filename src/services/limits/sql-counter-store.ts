import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { CounterSpec, CounterState, CounterStore, TakeOutcome } from './counter-store.js';

/** How often expired windows (mostly failed-login counters of passing addresses) are deleted. */
const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * One atomic statement on both databases: insert a window, or add to the live one, or restart an
 * ended one, and return the result. Every SET expression reads the row as it was before the update.
 */
async function upsert(db: Executor, spec: CounterSpec, now: number, cost: number): Promise<CounterState> {
  const live = sql<boolean>`limit_counters.window_end > ${now}`;
  const row = await db
    .insertInto('limit_counters')
    .values({ key: spec.key, hits: cost, window_end: spec.freshWindowEnd })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when ${live} then limit_counters.hits + excluded.hits else excluded.hits end`,
        window_end: sql<number>`case when ${live} then limit_counters.window_end else excluded.window_end end`,
      }),
    )
    .returning(['hits', 'window_end'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), windowEnd: Number(row.window_end) };
}

/**
 * Counters in the embedded store's `limit_counters` table (SQLite file or PostgreSQL), shared by
 * every process on that database.
 *
 * A take with limits runs as one transaction: each counter is incremented with the upsert above,
 * and the transaction is rolled back when any of them went over its limit. The increments lock
 * what they touch until the end: on SQLite the transaction begins IMMEDIATE and holds the database
 * write lock (across processes too); on PostgreSQL the upsert holds the row lock, so concurrent
 * takes of one counter queue and each sees every committed hit before it. Counters are locked in
 * key order, so two takes never wait on each other in a cycle.
 *
 * Queries go through Kysely rather than the raw driver: on SQLite, Kysely serialises use of the
 * single connection, so a hit never lands inside (and is never rolled back with) another
 * service's open transaction.
 */
export function createSqlCounterStore(
  db: Kysely<Database>,
  options: { housekeeping?: { clock: () => number } } = {},
): CounterStore {
  let timer: NodeJS.Timeout | undefined;
  if (options.housekeeping) {
    const { clock } = options.housekeeping;
    timer = setInterval(() => {
      db.deleteFrom('limit_counters')
        .where('window_end', '<=', clock())
        .execute()
        .catch(() => {
          // Retried at the next interval; an ended window is restarted by the next hit anyway.
        });
    }, HOUSEKEEPING_INTERVAL_MS);
    timer.unref();
  }

  return {
    async take(specs, now, cost = 1): Promise<TakeOutcome> {
      const order = specs.map((_, i) => i).sort((a, b) => (specs[a]!.key < specs[b]!.key ? -1 : 1));
      if (specs.every((s) => s.limit === null)) {
        // Nothing to refuse: each upsert is atomic on its own.
        const counters: CounterState[] = new Array(specs.length);
        for (const i of order) counters[i] = await upsert(db, specs[i]!, now, cost);
        return { taken: true, counters };
      }
      const trx = await db.startTransaction().execute();
      try {
        const counters: CounterState[] = new Array(specs.length);
        let within = true;
        for (const i of order) {
          const spec = specs[i]!;
          const state = await upsert(trx, spec, now, cost);
          counters[i] = state;
          if (spec.limit !== null && state.hits > spec.limit) within = false;
        }
        if (within) {
          await trx.commit().execute();
          return { taken: true, counters };
        }
        await trx.rollback().execute();
        return {
          taken: false,
          counters: counters.map((c) => ({ hits: c.hits - cost, windowEnd: c.windowEnd })),
        };
      } catch (err) {
        await trx
          .rollback()
          .execute()
          .catch(() => {});
        throw err;
      }
    },

    async peek(key, now) {
      const row = await db
        .selectFrom('limit_counters')
        .select(['hits', 'window_end'])
        .where('key', '=', key)
        .where('window_end', '>', now)
        .executeTakeFirst();
      return row ? { hits: Number(row.hits), windowEnd: Number(row.window_end) } : { hits: 0, windowEnd: 0 };
    },

    async clear(key) {
      await db.deleteFrom('limit_counters').where('key', '=', key).execute();
    },

    async close() {
      if (timer) clearInterval(timer);
    },
  };
}
