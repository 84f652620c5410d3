import type { Redis } from 'ioredis';
import type { Tracer } from '../../domain/tracer.js';
import {
  type CounterSpec,
  type CounterState,
  type CounterStore,
  CounterStoreUnavailable,
  type LeaseOutcome,
  type ReleaseSpec,
  releaseEntries,
  type TakeOutcome,
} from './counter-store.js';
import { LEASE, RAISE, RELEASE, type Script, TAKE } from './redis-counter-scripts.js';
import { createRedisScriptSender, type ScriptSender } from './redis-script-sender.js';
import { type RedisConnectionWatch, watchRedisConnection } from './watch-redis-connection.js';

/** A window outlives its end by this much in Redis, for instances whose clocks run behind. */
const EXPIRY_GRACE_MS = 60_000;
/**
 * How long a call waits for a connection attempt that is under way (at startup, or a reconnect):
 * the client's command timeout, or its connect timeout without one. While Redis is known to be
 * down calls fail at once: the client is created without an offline queue (src/runtime.ts).
 */
const READY_WAIT_MS = 2000;
/** Commands timing out on a connection that answered nothing for this many command timeouts drop it. */
const SILENT_TIMEOUTS = 3;

/** The Redis store, with what a durable copy of its counters needs (durable-counter-store.ts). */
export interface RedisCounterStore extends CounterStore {
  /** The connection this store is on; a reply from an earlier one is a reply from a lost Redis. */
  readonly connection: RedisConnectionWatch;
  /** Raises each counter to at least the hits given for its live window (RAISE in redis-counter-scripts.ts). */
  raise(counters: readonly { key: string; hits: number; windowEnd: number }[], now: number): Promise<void>;
}

/** The keys and arguments of a release, in give_back's order (redis-counter-scripts.ts). */
function releaseParts(prefix: string, spec: ReleaseSpec): { keys: string[]; args: Array<string | number> } {
  const entries = releaseEntries(spec);
  const keys = [...entries.map((e) => prefix + e.key), ...(spec.drain ? [prefix + spec.drain.key] : [])];
  const args: Array<string | number> = [entries.length, spec.drain ? 1 : 0];
  for (const e of entries) args.push(e.cost, e.drained ? 1 : 0, e.windowEnd ?? -1);
  return { keys, args };
}

/**
 * The keys and arguments of the take or the lease script, which share them (amount, now, grace,
 * the number of counted keys, then per counter its limit and fresh window end). A take may carry
 * a release after them.
 */
function addParts(
  prefix: string,
  specs: readonly CounterSpec[],
  now: number,
  amount: number,
  then?: ReleaseSpec,
): { keys: string[]; args: Array<string | number> } {
  const keys = specs.map((s) => prefix + s.key);
  const args: Array<string | number> = [amount, now, EXPIRY_GRACE_MS, specs.length];
  for (const s of specs) args.push(s.limit ?? -1, s.freshWindowEnd);
  if (then) {
    const release = releaseParts(prefix, then);
    keys.push(...release.keys);
    args.push(...release.args);
  }
  return { keys, args };
}

/** The take and lease scripts' reply: a verdict, then per counter its hits and window end. */
function addReply(reply: number[], count: number): { first: number; counters: CounterState[] } {
  const counters = Array.from({ length: count }, (_, i) => ({
    hits: Number(reply[1 + 2 * i]),
    windowEnd: Number(reply[2 + 2 * i]),
  }));
  return { first: Number(reply[0]), counters };
}

/**
 * Runs each command once the connection is usable (connected, and settled when `settleMs` asks
 * for it); any failure is a CounterStoreUnavailable, and tells the connection watch.
 */
function guardedCalls(
  connection: RedisConnectionWatch,
  settleMs: number,
): <T>(command: () => Promise<T>) => Promise<T> {
  return async (command) => {
    try {
      await connection.connected();
      if (settleMs > 0) await connection.settled();
      const reply = await command();
      connection.answered();
      return reply;
    } catch (err) {
      if (err instanceof CounterStoreUnavailable) throw err;
      connection.failed(err);
      throw new CounterStoreUnavailable(err);
    }
  };
}

/**
 * Counters in Redis under `rpa:<namespace>:`; the namespace keeps deployments sharing one Redis
 * apart. With `settleMs`, the store answers nothing for that long after the Redis server started
 * (watch-redis-connection.ts); every call fails with CounterStoreUnavailable meanwhile.
 */
export function createRedisCounterStore(
  redis: Redis,
  namespace: string,
  options: { readonly settleMs?: number; readonly tracer?: Tracer | undefined } = {},
): RedisCounterStore {
  const prefix = `rpa:${namespace}:`;
  const commandTimeout = redis.options.commandTimeout;
  const readyWaitMs = commandTimeout ?? READY_WAIT_MS;
  const settleMs = options.settleMs ?? 0;
  const connection = watchRedisConnection(redis, {
    settleMs,
    silenceMs: SILENT_TIMEOUTS * (commandTimeout ?? READY_WAIT_MS),
    readyWaitMs,
  });
  const call = guardedCalls(connection, settleMs);
  const run: ScriptSender = createRedisScriptSender(redis, options.tracer);

  async function add(
    script: Script,
    specs: readonly CounterSpec[],
    now: number,
    amount: number,
    then?: ReleaseSpec,
  ) {
    const { keys, args } = addParts(prefix, specs, now, amount, then);
    return addReply((await call(() => run(script, keys, args))) as number[], specs.length);
  }

  return {
    connection,

    async take(specs, now, cost = 1, then): Promise<TakeOutcome> {
      const { first, counters } = await add(TAKE, specs, now, cost, then);
      return { taken: first === 1, counters };
    },

    async lease(specs, now, want): Promise<LeaseOutcome> {
      const { first, counters } = await add(LEASE, specs, now, want);
      return { granted: first, counters };
    },

    async release(spec, now) {
      const { keys, args } = releaseParts(prefix, spec);
      if (keys.length === 0) return;
      await call(() => run(RELEASE, keys, [now, ...args]));
    },

    async raise(counters, now) {
      if (counters.length === 0) return;
      const keys = counters.map((c) => prefix + c.key);
      const args: Array<string | number> = [now, EXPIRY_GRACE_MS, counters.length];
      for (const c of counters) args.push(c.hits, c.windowEnd);
      await call(() => run(RAISE, keys, args));
    },

    async peek(key, now) {
      const [h, e] = await call(() => redis.hmget(prefix + key, 'h', 'e'));
      const hits = Number(h ?? 0);
      const windowEnd = Number(e ?? 0);
      return windowEnd > now ? { hits, windowEnd } : { hits: 0, windowEnd: 0 };
    },

    async clear(key) {
      await call(() => redis.del(prefix + key));
    },

    async close() {},
  };
}
