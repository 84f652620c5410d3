import { type Kysely, sql, type Transaction } from 'kysely';
import type { Store } from '../database.js';
import { dialectOf } from '../dialect-of.js';
import type { Database } from '../schema.js';
import {
  type CounterSpec,
  type CounterState,
  type CounterStore,
  groupOf,
  type LeaseOutcome,
  leaseOutcome,
  type ReleaseSpec,
  releaseGifts,
  takeOutcome,
  withinLimits,
} from './counter-store.js';
import { type CounterStoreOptions, startCounterHousekeeping } from './start-counter-housekeeping.js';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Adds `cost` to each counter and reports whether every one stayed within its limit. One atomic
 * statement on both databases: per counter, insert a window, or add to the live one, or restart an
 * ended one, and return the result (every SET expression reads the row as it was before). Rows are
 * given in key order, so counters are locked in key order. Keys of one take are distinct.
 */
async function upsertAll(
  db: Executor,
  specs: readonly CounterSpec[],
  now: number,
  cost: number,
): Promise<{ within: boolean; counters: CounterState[] }> {
  const sorted = [...specs].sort((a, b) => (a.key < b.key ? -1 : 1));
  const live = sql<boolean>`limit_counters.window_end > ${now}`;
  const rows = await db
    .insertInto('limit_counters')
    .values(sorted.map((spec) => ({ key: spec.key, hits: cost, window_end: spec.freshWindowEnd })))
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when ${live} then limit_counters.hits + excluded.hits else excluded.hits end`,
        window_end: sql<number>`case when ${live} then limit_counters.window_end else excluded.window_end end`,
      }),
    )
    .returning(['key', 'hits', 'window_end'])
    .execute();
  const byKey = new Map(rows.map((r) => [r.key, { hits: Number(r.hits), windowEnd: Number(r.window_end) }]));
  const counters = specs.map((spec) => {
    const state = byKey.get(spec.key);
    if (!state) throw new Error(`counter ${spec.key} was not returned`);
    return state;
  });
  return { within: withinLimits(specs, counters), counters };
}

/**
 * Adds hits to the window that ends at `windowEnd`, as Redis numbered it, whatever this instance's
 * clock says: a grant written after another instance has already started the next window in Redis
 * must still count in its own. A row of an earlier window is replaced; a row of a later one is
 * left alone, since the window the hits belong to has ended.
 */
async function addToWindow(
  db: Executor,
  { key, cost, windowEnd }: { key: string; cost: number; windowEnd: number },
): Promise<void> {
  const same = sql<boolean>`limit_counters.window_end = excluded.window_end`;
  const earlier = sql<boolean>`limit_counters.window_end < excluded.window_end`;
  await db
    .insertInto('limit_counters')
    .values({ key, hits: cost, window_end: windowEnd })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when ${same} then limit_counters.hits + excluded.hits when ${earlier} then excluded.hits else limit_counters.hits end`,
        window_end: sql<number>`case when ${earlier} then excluded.window_end else limit_counters.window_end end`,
      }),
    )
    .execute();
}

/**
 * On PostgreSQL, every operation first takes a transaction-level advisory lock per `{group}` of its
 * keys (counter-store.ts: the keys of one operation share one), in order, so operations on one
 * group run one after another and never wait on each other in a cycle. Row locks alone could not
 * promise that: a release's `SELECT … FOR UPDATE` cannot lock a row whose insert has not committed
 * yet, and a take's upsert then waited on the release's delete while holding the row the release
 * was about to update (a deadlock, seen with takes and releases of new counters at once). SQLite
 * needs neither: the transaction holds the database write lock.
 */
async function lockGroups(db: Executor, keys: readonly string[]): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  const groups = [...new Set(keys.map(groupOf))].sort();
  for (const group of groups)
    await sql`select pg_advisory_xact_lock(hashtextextended(${group}, 0))`.execute(db);
}

/** The keys a release touches. */
const releaseKeys = (spec: ReleaseSpec): string[] => [
  ...spec.counters.map((c) => c.key),
  ...(spec.drain ? [spec.drain.key, ...spec.drain.alsoFrom] : []),
];

/** The release of counter-store.ts, inside a transaction that holds its groups' locks. */
async function releaseAll(db: Executor, spec: ReleaseSpec, now: number): Promise<void> {
  let drained = 0;
  if (spec.drain) {
    const row = await db
      .deleteFrom('limit_counters')
      .where('key', '=', spec.drain.key)
      .returning(['hits', 'window_end'])
      .executeTakeFirst();
    if (row && Number(row.window_end) > now) drained = Number(row.hits);
  }
  for (const { key, give, windowEnd } of releaseGifts(spec, drained)) {
    let update = db
      .updateTable('limit_counters')
      .set({ hits: sql<number>`case when hits > ${give} then hits - ${give} else 0 end` })
      .where('key', '=', key)
      .where('window_end', '>', now);
    if (windowEnd !== null) update = update.where('window_end', '=', windowEnd);
    await update.execute();
  }
}

/**
 * The lease of counter-store.ts inside one transaction: the upsert adds all of `want`, then
 * whatever no policy allows is taken off again before the commit. A lease that grants nothing is
 * rolled back by its caller instead.
 */
async function leaseAll(
  db: Executor,
  specs: readonly CounterSpec[],
  now: number,
  want: number,
): Promise<LeaseOutcome> {
  const outcome = leaseOutcome(specs, (await upsertAll(db, specs, now, want)).counters, want);
  const excess = want - outcome.granted;
  if (outcome.granted > 0 && excess > 0) {
    await db
      .updateTable('limit_counters')
      .set({ hits: sql<number>`hits - ${excess}` })
      .where(
        'key',
        'in',
        specs.map((s) => s.key),
      )
      .execute();
  }
  return outcome;
}

/**
 * Runs work as one write of the store's group commit that first takes the locks of its keys'
 * groups (lockGroups); the write is kept when `keep` says so.
 */
function lockedWrites(store: Pick<Store, 'groupCommit'>) {
  return <T>(keys: readonly string[], work: (trx: Executor) => Promise<T>, keep?: (result: T) => boolean) =>
    store.groupCommit(async (trx) => {
      await lockGroups(trx, keys);
      return work(trx);
    }, keep);
}

const keysOf = (counters: readonly { key: string }[]): string[] => counters.map((c) => c.key);

/** The SQL store, with the write a durable copy of other counters needs (durable-counter-store.ts). */
export interface SqlCounterStore extends CounterStore {
  /** Adds hits without a limit, each to the window ending at `windowEnd`, all in one transaction. */
  record(counters: readonly { key: string; cost: number; windowEnd: number }[]): Promise<void>;
}

/**
 * Counters in the embedded store's `limit_counters` table (SQLite file or PostgreSQL), shared by
 * every process on that database.
 *
 * A take (or a lease) is one write of the store's group commit: its counters are incremented with the upsert
 * above, and undone when any of them went over its limit. The increments lock what they touch
 * until the commit: on SQLite the transaction begins IMMEDIATE and holds the database write lock
 * (across processes too); on PostgreSQL the group's advisory lock (lockGroups) and the upsert's
 * row locks make concurrent operations on one counter queue, and each sees every committed hit
 * before it.
 *
 * Queries go through Kysely rather than the raw driver: on SQLite, Kysely serialises use of the
 * single connection, so a hit never lands inside (and is never rolled back with) another
 * service's open transaction.
 */
export function createSqlCounterStore(
  store: Pick<Store, 'db' | 'groupCommit'>,
  options: CounterStoreOptions = {},
): SqlCounterStore {
  const { db } = store;
  const stopHousekeeping = startCounterHousekeeping(options, (now) => {
    db.deleteFrom('limit_counters')
      .where('window_end', '<=', now)
      .execute()
      .catch(() => {
        // Retried at the next interval; an ended window is restarted by the next hit anyway.
      });
  });

  const locked = lockedWrites(store);

  return {
    async take(specs, now, cost = 1, then) {
      const { within, counters } = await locked(
        keysOf(specs),
        async (trx) => {
          const result = await upsertAll(trx, specs, now, cost);
          // Its keys share the specs' group, locked above.
          if (result.within && then) await releaseAll(trx, then, now);
          return result;
        },
        (result) => result.within,
      );
      return takeOutcome(within, counters, cost);
    },

    async lease(specs, now, want) {
      return locked(
        keysOf(specs),
        (trx) => leaseAll(trx, specs, now, want),
        (result) => result.granted > 0,
      );
    },

    async record(counters) {
      if (counters.length === 0) return;
      await locked(keysOf(counters), async (trx) => {
        for (const counter of counters) if (counter.cost > 0) await addToWindow(trx, counter);
      });
    },

    async release(spec, now) {
      const keys = releaseKeys(spec);
      if (keys.length === 0) return;
      await locked(keys, (trx) => releaseAll(trx, spec, now));
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
      stopHousekeeping();
    },
  };
}
