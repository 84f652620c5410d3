import { createHash } from 'node:crypto';

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

/**
 * Raises counters to at least the hits a durable copy holds for their live windows
 * (durable-counter-store.ts): a counter with no live window starts one that ends where the copy's
 * does. Taking the larger of the two is idempotent, so instances raising the same counters at
 * once cannot add up. ARGV: now, grace, the number of counters n, then per counter the hits and
 * the window end of its copy.
 */
const RAISE_SCRIPT = `${COUNTER_FUNCTIONS}
now, grace = tonumber(ARGV[1]), tonumber(ARGV[2])
for i = 1, tonumber(ARGV[3]) do
  local hits, e = tonumber(ARGV[2 + 2 * i]), tonumber(ARGV[3 + 2 * i])
  if e > now then
    local c = counter(KEYS[i], e)
    if c.h < hits then
      c.h = hits
      c.started = not c.stored
    end
  end
end
write()
return 0
`;

export interface Script {
  readonly source: string;
  readonly sha: string;
}
const script = (source: string): Script => ({ source, sha: createHash('sha1').update(source).digest('hex') });
export const TAKE = script(TAKE_SCRIPT);
export const LEASE = script(LEASE_SCRIPT);
export const RELEASE = script(RELEASE_SCRIPT);
export const RAISE = script(RAISE_SCRIPT);
