import type { Clock } from '../deps.js';
import { detachedKey } from '../detached-key.js';
import type { MaybePromise } from '../maybe-promise.js';

/** A bounded in-process cache in front of one database lookup (docs/architecture.md, Caches). */
export interface CachedLookup<V> {
  /** The value at once when memory holds it fresh, otherwise the promise of its load. */
  get(key: string): MaybePromise<V>;
  /** What get() would answer from memory without loading, or undefined when it would load. */
  peek(key: string): { readonly value: V } | undefined;
  /** Drops every entry; lookups under way when this is called fill nothing. */
  clear(): void;
}

/**
 * Answers from memory for `ttlMs` after a load, so a change made without an announcement is seen
 * within that time; `ttlMs` 0 loads every time. A value that stops being true by itself at a known
 * time (`expiresAt`, null for never) is answered from memory only until then. Absent results are
 * cached too (a caller may not learn from timing whether a key exists). Concurrent misses of one
 * key share one load, and a clear() during a load keeps that load's (possibly stale) answer out of
 * the cache.
 */
export function createCachedLookup<V>(options: {
  ttlMs: number;
  maxEntries: number;
  clock: Clock;
  load: (key: string) => Promise<V>;
  expiresAt?: ((value: V) => number | null) | undefined;
}): CachedLookup<V> {
  const { ttlMs, maxEntries, clock, load, expiresAt } = options;
  const entries = new Map<string, { value: V; freshUntil: number }>();
  const loading = new Map<string, Promise<V>>();
  let generation = 0;

  async function fill(key: string): Promise<V> {
    const startedAt = generation;
    const loadedAt = clock();
    const value = await load(key);
    const freshUntil = Math.min(loadedAt + ttlMs, expiresAt?.(value) ?? Number.POSITIVE_INFINITY);
    if (startedAt === generation) {
      entries.delete(key);
      // Oldest first: a Map keeps insertion order.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      // Keys are often cut from a request (a client id from a form body): keep a copy, not the request.
      entries.set(detachedKey(key), { value, freshUntil });
    }
    return value;
  }

  function peek(key: string): { readonly value: V } | undefined {
    if (ttlMs <= 0) return undefined;
    const cached = entries.get(key);
    return cached && cached.freshUntil > clock() ? cached : undefined;
  }

  return {
    get(key) {
      const held = peek(key);
      if (held) return held.value;
      if (ttlMs <= 0) return load(key);
      let pending = loading.get(key);
      if (!pending) {
        const started = fill(key).finally(() => {
          if (loading.get(key) === started) loading.delete(key);
        });
        pending = started;
        loading.set(key, pending);
      }
      return pending;
    },
    peek,
    clear() {
      generation += 1;
      entries.clear();
      // Callers from now on must not join a load that began before the change.
      loading.clear();
    },
  };
}
