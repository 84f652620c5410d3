import type { Logger } from 'pino';
import type { Clock } from '../deps.js';

/** The dependencies an instance can lose while it keeps running (docs/operations.md, Failure modes). */
export type Dependency = 'database' | 'redis';

/**
 * What this process knows of each dependency's health, learned from the calls it makes anyway:
 * the first failure after a success opens an outage, and it ends once the dependency has served
 * every call for `holdMs`. An outage is logged twice, when it starts and when it ends, never once
 * per failed call: under load a line per call would be hundreds a second, and would bury the two
 * that matter. A dependency that flaps (an empty Redis settling, a database failing over) fails
 * again within the hold, which continues the same outage instead of logging a pair per flap.
 */
export interface OutageLog {
  /** A call to the dependency failed because the dependency could not serve it. */
  down(dependency: Dependency, err: unknown): void;
  /** A call to the dependency succeeded. */
  up(dependency: Dependency): void;
  /** Whether the last call to the dependency failed. */
  isDown(dependency: Dependency): boolean;
}

export interface OutageLogOptions {
  /** How long a dependency must serve without a failure before its outage ends (default 5 s). */
  readonly holdMs?: number;
  /** Told when an outage starts (false) and when it ends (true), for the dependency gauge. */
  readonly onChange?: (dependency: Dependency, up: boolean) => void;
}

/** Long enough to cover the few seconds an empty Redis takes to settle (docs/operations.md, Redis). */
export const OUTAGE_HOLD_MS = 5_000;

interface Outage {
  readonly since: number;
  failures: number;
  /** When the dependency last started answering again, while the hold runs. */
  answeringSince: number | null;
  hold: NodeJS.Timeout | null;
}

/** Only the message (and a driver code) of the first failure: never a stack, never a query. */
function describe(err: unknown): { message: string; code?: string } {
  const { message, code } = (err ?? {}) as { message?: unknown; code?: unknown };
  return {
    message: typeof message === 'string' ? message : String(err),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

export function createOutageLog(logger: Logger, clock: Clock, options: OutageLogOptions = {}): OutageLog {
  const holdMs = options.holdMs ?? OUTAGE_HOLD_MS;
  const outages = new Map<Dependency, Outage>();
  const end = (dependency: Dependency, outage: Outage) => {
    if (outage.hold) clearTimeout(outage.hold);
    outages.delete(dependency);
    options.onChange?.(dependency, true);
    logger.warn(
      {
        dependency,
        outageMs: (outage.answeringSince ?? clock()) - outage.since,
        failedCalls: outage.failures,
      },
      `${dependency} available again: outage ended`,
    );
  };
  return {
    down(dependency, err) {
      const outage = outages.get(dependency);
      if (outage) {
        outage.failures += 1;
        if (outage.hold) clearTimeout(outage.hold);
        outage.hold = null;
        outage.answeringSince = null;
        return;
      }
      outages.set(dependency, { since: clock(), failures: 1, answeringSince: null, hold: null });
      options.onChange?.(dependency, false);
      logger.warn({ dependency, cause: describe(err) }, `${dependency} unavailable: outage started`);
    },
    up(dependency) {
      const outage = outages.get(dependency);
      if (!outage || outage.answeringSince !== null) return;
      outage.answeringSince = clock();
      if (holdMs <= 0) return end(dependency, outage);
      outage.hold = setTimeout(() => end(dependency, outage), holdMs);
      outage.hold.unref();
    },
    isDown: (dependency) => outages.get(dependency)?.answeringSince === null,
  };
}
