import assert from 'node:assert/strict';
import type { Dependency } from './fault-checks.js';
import type { OwnPostgres } from './own-postgres.js';
import type { OwnRedis } from './own-redis.js';
import { exhaustConnections } from './system-tenant.js';

export const FAULTS = [
  'PostgreSQL immediate stop',
  'PostgreSQL connections exhausted',
  'Redis killed, restarted empty',
  'Redis stalled (SIGSTOP)',
  'worker SIGKILLed mid-erasure',
] as const;
export type FaultName = (typeof FAULTS)[number];

export interface Fault {
  /** The dependency `/readyz` must name as down while the fault lasts, if any. */
  readonly dependency: Dependency | null;
  /** Brings the fault about; resolves with what undoes it. */
  inject(): Promise<() => Promise<void>>;
}

/** What each fault does to the suite's own servers and processes, and how it is undone. */
export function fault(
  name: FaultName,
  the: { postgres: OwnPostgres; redis: OwnRedis; killWorker(): Promise<void>; startWorker(): Promise<void> },
): Fault {
  switch (name) {
    case 'PostgreSQL immediate stop':
      return {
        dependency: 'database',
        inject: async () => {
          await the.postgres.stopImmediately();
          return () => the.postgres.start();
        },
      };
    case 'PostgreSQL connections exhausted':
      // Not required to read as down: an instance whose pool still holds connections serves on.
      return {
        dependency: null,
        inject: async () => {
          const hold = await exhaustConnections(the.postgres.url, the.postgres.maxConnections + 10);
          assert.match(hold.refusal, /too many clients/, `held ${hold.held} connections`);
          return async () => void (await hold.release());
        },
      };
    case 'Redis killed, restarted empty':
      return {
        dependency: 'redis',
        inject: async () => {
          await the.redis.kill();
          return () => the.redis.start();
        },
      };
    case 'Redis stalled (SIGSTOP)':
      return {
        dependency: 'redis',
        inject: async () => {
          the.redis.pause();
          return async () => the.redis.resume();
        },
      };
    case 'worker SIGKILLed mid-erasure':
      return {
        dependency: null,
        inject: async () => {
          await the.killWorker();
          return the.startWorker;
        },
      };
  }
}
