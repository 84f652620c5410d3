import { TEST_DIALECT, TEST_REDIS_URL } from './test-runtime.js';

/**
 * The counter stores a suite runs against: the embedded database named by DATABASE_URL (SQLite or
 * PostgreSQL, with REDIS_URL blanked so no Redis is used), and Redis too when REDIS_URL is set.
 */
export const COUNTER_STORES: ReadonlyArray<{ readonly name: string; readonly env: Record<string, string> }> =
  [
    { name: 'database', env: { REDIS_URL: '' } },
    ...(TEST_REDIS_URL ? [{ name: 'redis', env: { REDIS_URL: TEST_REDIS_URL } }] : []),
  ];

/**
 * The stores a counter-store suite runs against: those of COUNTER_STORES, plus on SQLite the
 * in-process counters (the failed-authentication throttle's), which have their own implementation.
 */
export const COUNTER_STORE_KINDS: ReadonlyArray<{
  readonly name: string;
  readonly env: Record<string, string>;
  readonly inProcess?: boolean;
}> = [
  ...COUNTER_STORES,
  ...(TEST_DIALECT === 'sqlite' ? [{ name: 'in-process', env: { REDIS_URL: '' }, inProcess: true }] : []),
];

/** A controllable clock: 2026-11-23T10:15:18.000Z, 18 s into a minute, 36918 s into a UTC day. */
export function testClock(start = Date.UTC(2026, 10, 23, 10, 15, 18)) {
  let now = start;
  return {
    now: () => now,
    set(ms: number) {
      now = ms;
    },
    advance(ms: number) {
      now += ms;
    },
  };
}
