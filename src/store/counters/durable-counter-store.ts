import { performance } from 'node:perf_hooks';
import { createSharedLoads } from '../create-shared-loads.js';
import {
  type CounterSpec,
  type CounterStore,
  CounterStoreUnavailable,
  groupOf,
  type LeaseOutcome,
  type TakeOutcome,
} from './counter-store.js';
import type { RedisCounterStore } from './redis-counter-store.js';
import type { SqlCounterStore } from './sql-counter-store.js';

/**
 * How long after a grant was asked for its write to the database may complete: past it, nothing
 * of the grant is admitted. The settle period (DURABLE_SETTLE_MS) must be longer.
 */
export const WRITE_THROUGH_BOUND_MS = 2000;
/**
 * How long after the Redis server started its counters are not used: longer than the
 * write-through bound, so every grant of a Redis that was lost is in the database by then. The
 * start is learned from the server's uptime in whole seconds, which can overstate it by up to a
 * second (watch-redis-connection.ts); the other second is to spare.
 */
export const DURABLE_SETTLE_MS = WRITE_THROUGH_BOUND_MS + 2000;

/** Groups remembered as restored, beyond which they are all forgotten. */
const MAX_RESTORED_GROUPS = 100_000;

function unavailable(reason: string): CounterStoreUnavailable {
  return new CounterStoreUnavailable(new Error(reason));
}

/** Raises the Redis counters of `specs` to at least the database's copy of their live windows. */
async function restore(
  redis: RedisCounterStore,
  sql: SqlCounterStore,
  specs: readonly CounterSpec[],
  now: number,
  generation: number,
): Promise<void> {
  await redis.connection.settled();
  let copies: { key: string; hits: number; windowEnd: number }[];
  try {
    copies = await Promise.all(specs.map(async ({ key }) => ({ key, ...(await sql.peek(key, now)) })));
  } catch (err) {
    throw new CounterStoreUnavailable(err, 'database');
  }
  if (redis.connection.generation !== generation) throw unavailable('Redis reconnected during a restore');
  await redis.raise(
    copies.filter((c) => c.windowEnd > now && c.hits > 0),
    now,
  );
}

/**
 * Restores the specs' `{group}` once per connection; concurrent first uses share one restore.
 * Resolves to the connection the group was restored on.
 */
function restoreOncePerConnection(
  redis: RedisCounterStore,
  sql: SqlCounterStore,
): (specs: readonly CounterSpec[], now: number) => Promise<number> {
  /** The `{group}`s restored on connection `restoredOn`. */
  const restored = new Set<string>();
  let restoredOn = redis.connection.generation;
  const restoring = createSharedLoads<string, void>();

  return async (specs, now) => {
    const generation = redis.connection.generation;
    const group = groupOf(specs[0]?.key ?? '');
    // Forgetting costs a restore more, nothing else: groups of earlier connections go, and all
    // of them when too many passkeys were used on one connection.
    if (restoredOn !== generation || restored.size >= MAX_RESTORED_GROUPS) {
      restored.clear();
      restoredOn = generation;
    }
    if (!restored.has(group)) {
      await restoring.load(`${generation}:${group}`, async () => {
        await restore(redis, sql, specs, now, generation);
        if (restoredOn === generation) restored.add(group);
      });
    }
    return generation;
  };
}

/** Writes a grant through, or throws: nothing of it may be admitted then. */
async function writeThrough(
  sql: SqlCounterStore,
  specs: readonly CounterSpec[],
  windowEnds: readonly number[],
  cost: number,
  askedAt: number,
): Promise<void> {
  const left = askedAt + WRITE_THROUGH_BOUND_MS - performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, left));
  });
  try {
    const written = sql.record(specs.map((s, i) => ({ key: s.key, cost, windowEnd: windowEnds[i]! })));
    written.catch(() => {});
    // Checked again once written: a busy event loop can run a late write's callback first.
    const outcome = await Promise.race([written, late]);
    if (outcome === 'late' || performance.now() > askedAt + WRITE_THROUGH_BOUND_MS) {
      throw new CounterStoreUnavailable(new Error('the database did not record a grant in time'), 'database');
    }
  } catch (err) {
    throw err instanceof CounterStoreUnavailable ? err : new CounterStoreUnavailable(err, 'database');
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Redis counters that a restart of Redis does not make forget what was admitted (docs/design.md,
 * Limits). Redis stays the one place where instances take allowance, atomically; the database
 * keeps a copy of each window's hits that is never lower than what was admitted from it:
 *
 * 1. Write-through: every grant (a lease, a take) is added to the same window in the database
 *    (SqlCounterStore.record) before any of it is admitted. When that write fails, or completes
 *    later than WRITE_THROUGH_BOUND_MS after the grant was asked for, the grant is not admitted
 *    (CounterStoreUnavailable) and stays counted: under-admission only. Allowance given back is
 *    taken off the copy after Redis took it back; if that fails, the copy stays higher, which
 *    only ever lowers what a restore allows.
 * 2. Settle: a Redis that restarted lost its counters. For DURABLE_SETTLE_MS after the server
 *    started (its uptime, watch-redis-connection.ts) the Redis store answers nothing, so by the
 *    time any instance reads the copy, every grant of the lost Redis that will ever be admitted is
 *    in it. A replica promoted by Sentinel may have missed the last grants of the primary it
 *    replaced: an instance that reaches another server than before settles from that moment.
 * 3. Restore: before its first grant for a `{group}` on each connection, an instance reads the
 *    copy's live windows and raises the Redis counters to at least those (RedisCounterStore.raise).
 *    Taking the larger is idempotent, so instances restoring at once are safe; a grant whose reply
 *    comes back on a later connection than its restore was made on is not admitted.
 *
 * Allowance leased ahead makes this cheap: one database write per lease, none per admitted call,
 * and one read per `{group}` per connection.
 *
 * Not covered: a Redis that loses counters without dropping its clients' connections, or while
 * keeping its uptime: FLUSHALL or FLUSHDB, keys evicted under memory pressure (run Redis with
 * `maxmemory-policy noeviction`), a proxy that keeps the clients' connections across a restart or
 * a failover. A restore still happens on every
 * reconnection, so the next one repairs the counters, but what was granted meanwhile may exceed
 * the policy.
 */
export function createDurableCounterStore(redis: RedisCounterStore, sql: SqlCounterStore): CounterStore {
  const restoredFor = restoreOncePerConnection(redis, sql);

  /** Runs a grant on a restored connection; the reply must come from that connection. */
  async function grant<T>(
    specs: readonly CounterSpec[],
    now: number,
    ask: () => Promise<T>,
    granted: (outcome: T) => { cost: number; windowEnds: readonly number[] },
  ): Promise<T> {
    const askedAt = performance.now();
    const generation = await restoredFor(specs, now);
    const outcome = await ask();
    if (redis.connection.generation !== generation) throw unavailable('Redis reconnected during a grant');
    const { cost, windowEnds } = granted(outcome);
    if (cost > 0) await writeThrough(sql, specs, windowEnds, cost, askedAt);
    return outcome;
  }

  return {
    take(specs, now, cost = 1, then): Promise<TakeOutcome> {
      return grant(
        specs,
        now,
        () => redis.take(specs, now, cost, then),
        (o) => ({ cost: o.taken ? cost : 0, windowEnds: o.counters.map((c) => c.windowEnd) }),
      );
    },

    lease(specs, now, want): Promise<LeaseOutcome> {
      return grant(
        specs,
        now,
        () => redis.lease(specs, now, want),
        (o) => ({ cost: o.granted, windowEnds: o.counters.map((c) => c.windowEnd) }),
      );
    },

    async release(spec, now) {
      await redis.release(spec, now);
      await sql.release(spec, now).catch(() => {
        // The copy stays higher than Redis: a later restore allows less, never more.
      });
    },

    peek: (key, now) => redis.peek(key, now),

    async clear(key) {
      await redis.clear(key);
      await sql.clear(key);
    },

    async close() {
      await Promise.all([redis.close(), sql.close()]);
    },
  };
}
