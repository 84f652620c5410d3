import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import { createSharedLoads } from '../create-shared-loads.js';
import { CounterStoreUnavailable } from './counter-store.js';

/**
 * What a counter store knows of its Redis connection beyond ioredis's status: which connection
 * it is on, whether the server behind it restarted too recently to be used, and whether a
 * connection that stopped answering should be replaced.
 */
export interface RedisConnectionWatch {
  /** Counts the connections made ('ready' events): a reply belongs to the connection it was sent on. */
  readonly generation: number;
  /**
   * Resolves once a connection attempt under way (at startup, or a reconnect) has ended, or after
   * the ready wait, whichever is first; at once otherwise. The client has no offline queue, so a
   * command sent meanwhile would fail at once rather than wait for the connection.
   */
  connected(): Promise<void>;
  /**
   * Resolves when the server has been up for at least the settle period (after connected());
   * rejects with
   * CounterStoreUnavailable while it has not, or when that cannot be learned (one INFO per
   * connection, asked again after a failure).
   */
  settled(): Promise<void>;
  /** A command answered: the connection is alive. */
  answered(): void;
  /** A command failed; a connection silent for long enough is dropped and made anew. */
  failed(err: unknown): void;
}

/**
 * RedisConnectionWatch.connected: the end of the connection attempt under way, or of the ready
 * wait, whichever comes first; callers waiting at once share one wait.
 */
function waitForConnectionAttempts(redis: Redis, readyWaitMs: number): () => Promise<void> {
  const attempts = createSharedLoads<'attempt', void>();
  const endOfAttempt = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        redis.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, readyWaitMs);
      timer.unref();
      redis.once('ready', done);
      redis.once('error', done);
      redis.once('close', done);
    });
  return () => {
    const status = redis.status;
    if (status !== 'connecting' && status !== 'connect') return Promise.resolve();
    return attempts.load('attempt', endOfAttempt);
  };
}

/** Which server answered INFO server (its run_id), and when it started, in performance.now() time. */
function serverStart(info: string): { server: string | null; startedAt: number } {
  const uptime = /^uptime_in_seconds:(\d+)/m.exec(info);
  if (!uptime) throw new Error('INFO server reported no uptime_in_seconds');
  const server = /^run_id:(\w+)/m.exec(info)?.[1] ?? null;
  return { server, startedAt: performance.now() - Number(uptime[1]) * 1000 };
}

/**
 * `settleMs` (0: none) is how long after the Redis server started its counters are not used
 * (docs/design.md, Limits). It is measured from the server's own uptime (INFO server), not from
 * this instance's reconnection, for two reasons: every instance then waits until the same moment
 * whenever it connects, also one that starts while Redis is restarting; and an instance that
 * merely reconnected (a network fault, a stall) to a Redis that kept its data, or that starts
 * against a Redis up for long, waits for nothing. Uptime is a duration on the server, so the
 * instances' clocks do not enter. It is the difference of two whole seconds of the server's
 * clock, so it can read up to a second more than has passed: `settleMs` allows for that.
 *
 * A connection made again to a server other than the one before (INFO run_id) waits `settleMs`
 * from the moment it was made, however long that server has been up: a replica promoted by
 * Sentinel may lack the last grants of the primary it replaced, which were all asked for before
 * this connection existed. A restarted server is another server too, so an instance that
 * reconnects to it waits until its own reconnection plus the period (a backoff's worth later than
 * one that connects for the first time): later only, which admits less.
 *
 * A connection that answers nothing for `silenceMs` while commands time out is dropped and made
 * anew (ioredis reconnects with backoff): a stalled server that resumes answers what it was sent
 * and the connection carries on, but a peer that vanished without closing the connection (a host
 * gone, a dropped route) would otherwise never be noticed.
 */
export function watchRedisConnection(
  redis: Redis,
  options: { readonly settleMs: number; readonly silenceMs: number; readonly readyWaitMs: number },
): RedisConnectionWatch {
  let generation = 1;
  /** performance.now() until which the server is too recently started; null until learned. */
  let settleUntil: number | null = options.settleMs > 0 ? null : 0;
  /** The INFO of each connection, asked once by all who need it. */
  const learning = createSharedLoads<number, void>();
  let lastAnswerAt = performance.now();
  /** When this connection became ready, and the server (INFO run_id) an earlier one was on. */
  let readyAt = performance.now();
  let lastServer: string | null = null;

  redis.on('ready', () => {
    generation += 1;
    settleUntil = options.settleMs > 0 ? null : 0;
    lastAnswerAt = performance.now();
    readyAt = lastAnswerAt;
  });

  function learnUptime(): Promise<void> {
    const asked = generation;
    return learning.load(asked, () =>
      redis.info('server').then((info) => {
        const { server, startedAt } = serverStart(info);
        if (generation !== asked) return;
        // Another server than before counts as started when this connection was made (above).
        const replaced = lastServer !== null && server !== lastServer;
        settleUntil = Math.max(startedAt, replaced ? readyAt : startedAt) + options.settleMs;
        lastServer = server;
      }),
    );
  }

  const connected = waitForConnectionAttempts(redis, options.readyWaitMs);

  function checkSettled(): void {
    if (settleUntil !== null && performance.now() >= settleUntil) return;
    throw new CounterStoreUnavailable(
      new Error('Redis restarted moments ago: its counters are being settled'),
    );
  }

  return {
    get generation() {
      return generation;
    },
    connected,
    async settled() {
      await connected();
      if (settleUntil === null) {
        try {
          await learnUptime();
        } catch (err) {
          throw err instanceof CounterStoreUnavailable ? err : new CounterStoreUnavailable(err);
        }
      }
      checkSettled();
    },
    answered() {
      lastAnswerAt = performance.now();
    },
    failed(err) {
      const timedOut = err instanceof Error && err.message === 'Command timed out';
      if (!timedOut || redis.status !== 'ready') return;
      if (performance.now() - lastAnswerAt < options.silenceMs) return;
      lastAnswerAt = performance.now();
      redis.disconnect(true);
    },
  };
}
