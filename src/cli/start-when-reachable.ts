import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { createRuntime, type Runtime, retryableStartFailure, SchemaNotServable } from '../runtime.js';
import { createRetryBackoff } from '../services/health/create-retry-backoff.js';
import { describePendingMigrations } from '../services/health/describe-pending-migrations.js';
import type { InstanceState, StartBlocker } from '../services/health/instance-state.js';
import { reportRedisAtStart } from '../services/health/report-redis-at-start.js';

/** Why a start failed, for /readyz and the log: never the driver's message, which names hosts. */
function blockerOf(err: unknown): StartBlocker {
  if (err instanceof SchemaNotServable)
    return { detail: describePendingMigrations(err.pending, err.noTables), pendingMigrations: err.pending };
  return { detail: 'the database is not reachable' };
}

/**
 * Starts the runtime of `rpa serve` or `rpa worker` (createRuntime, refusing a schema older than
 * this code needs), waiting for as long as the database is out of reach or its schema waits for
 * `rpa migrate`, so a fleet started before its database, or before its release's migration step,
 * becomes ready by itself instead of a supervisor's restart loop. One line is logged per reason
 * the start waits for, not one per attempt. Anything else (a wrong setting) is thrown. Null when
 * `stopping` turned true first.
 */
export async function startWhenReachable(
  config: Config,
  logger: Logger,
  instance: InstanceState,
  stopping: () => boolean,
): Promise<Runtime | null> {
  const backoff = createRetryBackoff({ firstMs: 250, maxMs: 5_000 });
  let waitingFor: string | null = null;
  while (!stopping()) {
    try {
      const runtime = await createRuntime(config, { logger, requireSchema: true });
      await reportRedisAtStart(runtime.deps);
      if (waitingFor) logger.info('started: the database is reachable and its schema can be served');
      instance.blocker = null;
      return runtime;
    } catch (err) {
      if (!retryableStartFailure(config, err)) throw err;
      const blocker = blockerOf(err);
      instance.blocker = blocker;
      if (blocker.detail !== waitingFor) {
        waitingFor = blocker.detail;
        const cause = err instanceof SchemaNotServable ? {} : { cause: (err as Error).message };
        logger.warn(
          {
            ...cause,
            ...(blocker.pendingMigrations ? { pendingMigrations: blocker.pendingMigrations } : {}),
          },
          `not started: ${blocker.detail}; waiting`,
        );
      }
      await pause(backoff.next(), stopping);
    }
  }
  return null;
}

/** Waits `ms`, checking every 100 ms whether a stop has begun. */
async function pause(ms: number, stopping: () => boolean): Promise<void> {
  for (let waited = 0; waited < ms && !stopping(); waited += 100)
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, ms - waited)));
}
