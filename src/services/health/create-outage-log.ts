import type { Logger } from 'pino';
import type { Clock } from '../deps.js';

/** The dependencies an instance can lose while it keeps running (docs/operations.md, Failure modes). */
export type Dependency = 'database' | 'redis';

/**
 * What this process knows of each dependency's health, learned from the calls it makes anyway:
 * the first failure after a success opens an outage, the first success after failures closes it.
 * An outage is logged twice, when it starts and when it ends, never once per failed call: under
 * load a line per call would be hundreds a second, and would bury the two that matter.
 */
export interface OutageLog {
  /** A call to the dependency failed because the dependency could not serve it. */
  down(dependency: Dependency, err: unknown): void;
  /** A call to the dependency succeeded. */
  up(dependency: Dependency): void;
  /** Whether the last call to the dependency failed. */
  isDown(dependency: Dependency): boolean;
}

interface Outage {
  readonly since: number;
  failures: number;
}

/** Only the message (and a driver code) of the first failure: never a stack, never a query. */
function describe(err: unknown): { message: string; code?: string } {
  const { message, code } = (err ?? {}) as { message?: unknown; code?: unknown };
  return {
    message: typeof message === 'string' ? message : String(err),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

export function createOutageLog(logger: Logger, clock: Clock): OutageLog {
  const outages = new Map<Dependency, Outage>();
  return {
    down(dependency, err) {
      const outage = outages.get(dependency);
      if (outage) {
        outage.failures += 1;
        return;
      }
      outages.set(dependency, { since: clock(), failures: 1 });
      logger.warn({ dependency, cause: describe(err) }, `${dependency} unavailable: outage started`);
    },
    up(dependency) {
      const outage = outages.get(dependency);
      if (!outage) return;
      outages.delete(dependency);
      logger.warn(
        { dependency, outageMs: clock() - outage.since, failedCalls: outage.failures },
        `${dependency} available again: outage ended`,
      );
    },
    isDown: (dependency) => outages.has(dependency),
  };
}
