import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
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

/**
 * What the scripts share. Each counter is a hash {h: hits, e: window end}. A script reads each
 * counter once (`counter`), works on what it read, and writes at the end only what changed
 * (`write`): a window it started (HSET and PEXPIRE), hits of a live window that changed (HSET), a
 * drained counter that existed (DEL). A take given back in the same script, on a live window,
 * writes nothing. Expiry is relative (PEXPIRE), so a difference between the instance's clock and
 * the Redis server's cannot drop a live window early.
 *
 * ARGV of take and lease: an amount, now, expiry grace (ms), the number of counted keys n (the
 * first n KEYS), then per counted key its limit (-1: none) and the end of a window that would
 * start now. `give_back` is the release of counter-store.ts, from ARGV[a + 1] on: the number of
 * counters r that give hits back (KEYS[k + 1] to KEYS[k + r]), whether KEYS[k + r + 1] is drained
 * (1 or 0), then per counter the hits it gives back, whether it gives back the drained hits too
 * (1 or 0), and the end of the only window it gives back to (-1: whichever is live).
 */
const COUNTER_FUNCTIONS = `
local now, grace = 0, 0
local counters, order = {}, {}
local function counter(key, fresh_end)
  local c = counters[key]
  if c then return c end
  local stored = redis.call('HMGET', key, 'h', 'e')
  local h, e = tonumber(stored[1]), tonumber(stored[2])
  if h and e and e > now then
    c = { h = h, e = e, stored = true, read = h }
  else
    c = { h = 0, e = fresh_end, stored = false, read = 0 }
  end
  counters[key] = c
  order[#order + 1] = key
  return c
end
local function add(c, amount)
  c.h = c.h + amount
  c.started = not c.stored
end
local function live(c)
  return c.stored or c.started
end
local function give_back(k, a)
  local r = tonumber(ARGV[a + 1])
  local drained = 0
  if ARGV[a + 2] == '1' then
    local c = counter(KEYS[k + r + 1], 0)
    if live(c) then drained = c.h end
    c.h, c.started, c.drained = 0, false, true
  end
  for i = 1, r do
    local give = tonumber(ARGV[a + 3 * i]) + tonumber(ARGV[a + 1 + 3 * i]) * drained
    local only = tonumber(ARGV[a + 2 + 3 * i])
    if give > 0 then
      local c = counter(KEYS[k + i], 0)
      if live(c) and not c.drained and (only < 0 or c.e == only) then
        c.h = c.h - give
        if c.h < 0 then c.h = 0 end
      end
    end
  end
end
local function write()
  for _, key in ipairs(order) do
    local c = counters[key]
    if c.drained then
      if c.stored then redis.call('DEL', key) end
    elseif c.started then
      redis.call('HSET', key, 'h', c.h, 'e', string.format('%d', c.e))
      redis.call('PEXPIRE', key, c.e - now + grace)
    elseif c.stored and c.h ~= c.read then
      redis.call('HSET', key, 'h', c.h)
    end
  end
end
local function counted(n)
  local list = {}
  for i = 1, n do list[i] = counter(KEYS[i], tonumber(ARGV[4 + 2 * i])) end
  return list
end
local function states(head, list)
  local out = { head }
  for i = 1, #list do
    out[#out + 1] = list[i].h
    out[#out + 1] = list[i].e
  end
  return out
end
`;

/**
 * The same all-or-nothing take as the SQL store, as one Lua script: Redis runs a script without
 * interleaving any other command, so concurrent takes from every instance are serialised.
 * ARGV[1]: the cost. Returns 1 (taken) or 0, then per counted key its hits (after the take when
 * taken, before it otherwise) and window end. When taken, a release follows the counted keys'
 * arguments when there is one (KEYS after the counted keys).
 */
const TAKE_SCRIPT = `${COUNTER_FUNCTIONS}
local cost, n = tonumber(ARGV[1]), tonumber(ARGV[4])
now, grace = tonumber(ARGV[2]), tonumber(ARGV[3])
local list = counted(n)
local allowed = 1
for i = 1, n do
  local limit = tonumber(ARGV[3 + 2 * i])
  if limit >= 0 and list[i].h + cost > limit then allowed = 0 end
end
if allowed == 0 then return states(0, list) end
for i = 1, n do add(list[i], cost) end
local out = states(1, list)
if ARGV[4 + 2 * n + 1] then give_back(n, 4 + 2 * n) end
write()
return out
`;

/**
 * The lease of counter-store.ts, as one script. ARGV[1]: the amount wanted. Returns the grant,
 * then per key its hits and window end after it.
 */
const LEASE_SCRIPT = `${COUNTER_FUNCTIONS}
local want, n = tonumber(ARGV[1]), tonumber(ARGV[4])
now, grace = tonumber(ARGV[2]), tonumber(ARGV[3])
local list = counted(n)
local grant = want
for i = 1, n do
  local limit = tonumber(ARGV[3 + 2 * i])
  if limit >= 0 and limit - list[i].h < grant then grant = limit - list[i].h end
end
if grant < 0 then grant = 0 end
if grant > 0 then
  for i = 1, n do add(list[i], grant) end
  write()
end
return states(grant, list)
`;

/** The release of counter-store.ts, as one script. ARGV[1]: now; the release from ARGV[2] on. */
const RELEASE_SCRIPT = `${COUNTER_FUNCTIONS}
now = tonumber(ARGV[1])
give_back(0, 1)
write()
return 0
`;

interface Script {
  readonly source: string;
  readonly sha: string;
}
const script = (source: string): Script => ({ source, sha: createHash('sha1').update(source).digest('hex') });
const TAKE = script(TAKE_SCRIPT);
const LEASE = script(LEASE_SCRIPT);
const RELEASE = script(RELEASE_SCRIPT);

interface Settle {
  resolve: (reply: unknown) => void;
  reject: (err: unknown) => void;
}

/** A window outlives its end by this much in Redis, for instances whose clocks run behind. */
const EXPIRY_GRACE_MS = 60_000;
/**
 * How long a call waits for a connection attempt that is under way (at startup, or a reconnect),
 * matching the client's connect timeout. While Redis is known to be down calls fail at once: the
 * client is created without an offline queue (src/runtime.ts).
 */
const READY_WAIT_MS = 2000;

/** Counters in Redis under `rpa:<namespace>:`; the namespace keeps deployments sharing one Redis apart. */
export function createRedisCounterStore(redis: Redis, namespace: string): CounterStore {
  const prefix = `rpa:${namespace}:`;
  let connecting: Promise<void> | null = null;

  function settled(): Promise<void> {
    const status = redis.status;
    if (status !== 'connecting' && status !== 'connect') return Promise.resolve();
    connecting ??= new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('error', done);
        redis.off('close', done);
        connecting = null;
        resolve();
      };
      const timer = setTimeout(done, READY_WAIT_MS);
      timer.unref();
      redis.once('ready', done);
      redis.once('error', done);
      redis.once('close', done);
    });
    return connecting;
  }

  async function call<T>(command: () => Promise<T>): Promise<T> {
    try {
      await settled();
      return await command();
    } catch (err) {
      throw new CounterStoreUnavailable(err);
    }
  }

  /**
   * The scripts asked for in one turn of the event loop are sent back to back once the turn's I/O
   * callbacks are done (`setImmediate`), in the order asked, rather than each as it is asked for.
   * Every request of a turn asks in its own callback, so each write used to find Redis asleep and
   * pay for waking it; written together (one `writev` while the socket is corked) they wake it
   * once (bench/README.md, POST token). An ioredis pipeline would also be one write, but measured
   * fewer tokens a second than this and a larger heap.
   */
  let asked: Array<{ script: Script; keys: string[]; args: Array<string | number>; settle: Settle }> = [];
  function sendAsked(): void {
    const calls = asked;
    asked = [];
    const stream = redis.status === 'ready' ? redis.stream : undefined;
    stream?.cork();
    for (const { script, keys, args, settle } of calls) {
      redis.evalsha(script.sha, keys.length, ...keys, ...args).then(settle.resolve, (err: unknown) => {
        // First use on this server (or after SCRIPT FLUSH): send the script itself once.
        if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) return settle.reject(err);
        redis.eval(script.source, keys.length, ...keys, ...args).then(settle.resolve, settle.reject);
      });
    }
    stream?.uncork();
  }

  function run(script: Script, keys: string[], args: Array<string | number>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (asked.length === 0) setImmediate(sendAsked);
      asked.push({ script, keys, args, settle: { resolve, reject } });
    });
  }

  /** The keys and arguments of a release, in give_back's order, without its own prefix. */
  function releaseParts(spec: ReleaseSpec): { keys: string[]; args: Array<string | number> } {
    const entries = releaseEntries(spec);
    const keys = [...entries.map((e) => prefix + e.key), ...(spec.drain ? [prefix + spec.drain.key] : [])];
    const args: Array<string | number> = [entries.length, spec.drain ? 1 : 0];
    for (const e of entries) args.push(e.cost, e.drained ? 1 : 0, e.windowEnd ?? -1);
    return { keys, args };
  }

  /**
   * Runs the take or the lease script, which share their arguments (amount, now, grace, the
   * number of counted keys, then per counter its limit and fresh window end) and their reply (a
   * verdict, then per counter its hits and window end). A take may carry a release after them.
   */
  async function add(
    script: Script,
    specs: readonly CounterSpec[],
    now: number,
    amount: number,
    then?: ReleaseSpec,
  ): Promise<{ first: number; counters: CounterState[] }> {
    const keys = specs.map((s) => prefix + s.key);
    const args: Array<string | number> = [amount, now, EXPIRY_GRACE_MS, specs.length];
    for (const s of specs) args.push(s.limit ?? -1, s.freshWindowEnd);
    if (then) {
      const release = releaseParts(then);
      keys.push(...release.keys);
      args.push(...release.args);
    }
    const reply = (await call(() => run(script, keys, args))) as number[];
    const counters = specs.map((_, i) => ({
      hits: Number(reply[1 + 2 * i]),
      windowEnd: Number(reply[2 + 2 * i]),
    }));
    return { first: Number(reply[0]), counters };
  }

  return {
    async take(specs, now, cost = 1, then): Promise<TakeOutcome> {
      const { first, counters } = await add(TAKE, specs, now, cost, then);
      return { taken: first === 1, counters };
    },

    async lease(specs, now, want): Promise<LeaseOutcome> {
      const { first, counters } = await add(LEASE, specs, now, want);
      return { granted: first, counters };
    },

    async release(spec, now) {
      const { keys, args } = releaseParts(spec);
      if (keys.length === 0) return;
      await call(() => run(RELEASE, keys, [now, ...args]));
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
