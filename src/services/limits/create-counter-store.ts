import type { CounterStore } from '../../store/counters/counter-store.js';
import { createDurableCounterStore, DURABLE_SETTLE_MS } from '../../store/counters/durable-counter-store.js';
import { createMemoryCounterStore } from '../../store/counters/memory-counter-store.js';
import { createRedisCounterStore } from '../../store/counters/redis-counter-store.js';
import { createSqlCounterStore } from '../../store/counters/sql-counter-store.js';
import type { ServiceDeps } from '../deps.js';
import { resolveLimitsNamespace } from './resolve-limits-namespace.js';

/**
 * Redis when REDIS_URL is set, otherwise the embedded store (docs/design.md, Limits): either way every
 * instance on the same database counts in the same place. `durable` Redis counters keep a copy in
 * the database that a restarted Redis is restored from (durable-counter-store.ts): for counters
 * of what was admitted, which a restart must not let be admitted again. `housekeeping` deletes ended windows
 * from the SQL table now and then; one owner per table and process is enough. `inProcess`
 * counters (the failed-authentication throttle's) stay in this process's memory on SQLite, where
 * one server process serves the database (Store.processCounters).
 */
export async function createCounterStore(
  deps: Pick<ServiceDeps, 'redis' | 'store' | 'clock' | 'tracer'>,
  options: { housekeeping?: boolean; inProcess?: boolean; durable?: boolean } = {},
): Promise<CounterStore> {
  const upkeep = options.housekeeping ? { housekeeping: { clock: deps.clock } } : {};
  if (deps.redis) {
    const namespace = await resolveLimitsNamespace(deps.store.db);
    if (!options.durable) return createRedisCounterStore(deps.redis, namespace, { tracer: deps.tracer });
    return createDurableCounterStore(
      createRedisCounterStore(deps.redis, namespace, { settleMs: DURABLE_SETTLE_MS, tracer: deps.tracer }),
      createSqlCounterStore(deps.store, upkeep),
    );
  }
  const memory = options.inProcess ? deps.store.processCounters() : null;
  return memory ? createMemoryCounterStore(memory, upkeep) : createSqlCounterStore(deps.store, upkeep);
}
