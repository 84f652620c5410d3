import { isDatabaseUnavailable, isTransientConflict } from '../../store/driver-errors.js';
import type { ServiceDeps } from '../deps.js';
import { createWorkSignal } from '../privacy/work-signal.js';
import { createRetryBackoff, type RetryBackoff } from './create-retry-backoff.js';
import { openDatabaseOutage } from './report-database-outage.js';

const TRANSIENT_ATTEMPTS = 5;

/**
 * Runs a transaction until it commits. A deadlock or serialization failure (PostgreSQL) or a busy
 * database (SQLite) rolled it back having changed nothing, so it runs again at once, a few times.
 * A database that cannot be reached is waited for, with a growing pause and one outage logged
 * (deps.outages) rather than a line per attempt, for as long as it takes, unless `signal` fires:
 * then, as on any other failure, the error is thrown. A transaction that failed rolled back, so
 * running it again never does its work twice.
 */
export async function retryThroughOutage<T>(
  deps: Pick<ServiceDeps, 'outages' | 'store'>,
  run: () => Promise<T>,
  options: { signal?: AbortSignal | undefined; backoff?: RetryBackoff } = {},
): Promise<T> {
  const backoff = options.backoff ?? createRetryBackoff();
  for (let conflicts = 0; ; ) {
    try {
      const value = await run();
      deps.outages.up('database');
      backoff.reset();
      return value;
    } catch (err) {
      if (isTransientConflict(err) && ++conflicts < TRANSIENT_ATTEMPTS) continue;
      if (!isDatabaseUnavailable(err) || options.signal?.aborted) throw err;
      openDatabaseOutage(deps, err);
      await createWorkSignal().wait(backoff.next(), options.signal);
      if (options.signal?.aborted) throw err;
    }
  }
}
