import { LRUCache } from 'lru-cache';
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

/** A load's own failure, told apart from lru-cache giving up on a load (cleared, evicted). */
class LoadFailed {
  constructor(readonly cause: unknown) {}
}

/**
 * Answers from memory for `ttlMs` after a load, so a change made without an announcement is seen
 * within that time; `ttlMs` 0 loads every time. A value that stops being true by itself at a known
 * time (`expiresAt`, null for never) is answered from memory only until then. Absent results are
 * cached too (a caller may not learn from timing whether a key exists).
 *
 * lru-cache bounds the entries (the least recently used go first) and shares one load among
 * concurrent misses of a key. A clear() during a load aborts it, so its (possibly stale) answer is
 * not cached; its callers then share a load made after the change.
 */
export function createCachedLookup<V>(options: {
  ttlMs: number;
  maxEntries: number;
  clock: Clock;
  load: (key: string) => Promise<V>;
  expiresAt?: ((value: V) => number | null) | undefined;
}): CachedLookup<V> {
  const { ttlMs, maxEntries, clock, load, expiresAt } = options;
  const entries = new LRUCache<string, { value: V; freshUntil: number }>({
    max: maxEntries,
    fetchMethod: async (key) => {
      const loadedAt = clock();
      const value = await load(key).catch((err: unknown) => Promise.reject(new LoadFailed(err)));
      return {
        value,
        freshUntil: Math.min(loadedAt + ttlMs, expiresAt?.(value) ?? Number.POSITIVE_INFINITY),
      };
    },
  });

  async function loaded(key: string): Promise<V> {
    try {
      // Keys are often cut from a request (a client id from a form body): keep a copy, not the request.
      const entry = await entries.fetch(detachedKey(key), { forceRefresh: true });
      if (entry) return entry.value;
    } catch (err) {
      if (err instanceof LoadFailed) throw err.cause;
    }
    // Cleared or evicted while loading: load again, the answer now from after the change.
    return loaded(key);
  }

  function peek(key: string): { readonly value: V } | undefined {
    if (ttlMs <= 0) return undefined;
    const cached = entries.peek(key);
    return cached && cached.freshUntil > clock() ? cached : undefined;
  }

  return {
    get(key) {
      const held = peek(key);
      if (held) return held.value;
      return ttlMs <= 0 ? load(key) : loaded(key);
    },
    peek,
    clear: () => entries.clear(),
  };
}
