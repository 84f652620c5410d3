import type { CounterStore } from '../../store/counters/counter-store.js';
import { createMemoryCounterStore } from '../../store/counters/memory-counter-store.js';
import { createRedisCounterStore } from '../../store/counters/redis-counter-store.js';
import { createSqlCounterStore } from '../../store/counters/sql-counter-store.js';
import type { ServiceDeps } from '../deps.js';
import { resolveLimitsNamespace } from './resolve-limits-namespace.js';

/**
 * Redis when REDIS_URL is set, otherwise the embedded store (docs/design.md, Limits): either way every
 * instance on the same database counts in the same place. `housekeeping` deletes ended windows
 * from the SQL table now and then; one owner per table and process is enough. `inProcess`
 * counters (the failed-authentication throttle's) stay in this process's memory on SQLite, where
 * one server process serves the database (Store.processCounters).
 */
export async function createCounterStore(
  deps: Pick<ServiceDeps, 'redis' | 'store' | 'clock'>,
  options: { housekeeping?: boolean; inProcess?: boolean } = {},
): Promise<CounterStore> {
  if (deps.redis) return createRedisCounterStore(deps.redis, await resolveLimitsNamespace(deps.store.db));
  const memory = options.inProcess ? deps.store.processCounters() : null;
  if (memory) {
    return createMemoryCounterStore(
      memory,
      options.housekeeping ? { housekeeping: { clock: deps.clock } } : {},
    );
  }
  return createSqlCounterStore(
    deps.store,
    options.housekeeping ? { housekeeping: { clock: deps.clock } } : {},
  );
}
