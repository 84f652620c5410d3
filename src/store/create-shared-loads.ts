/**
 * One load per key at a time: a caller asking for a key while its load is under way gets that
 * load's promise, and the first caller after it settles starts a new one (a failure is not kept).
 * Concurrent misses of a cache, or the first uses of a connection, then cost one round trip.
 */
export interface SharedLoads<K, V> {
  /** The load of `key` under way, or `start()`'s, shared with whoever asks until it settles. */
  load(key: K, start: () => Promise<V>): Promise<V>;
  /** Callers from now on start afresh: a load begun before a change must not be joined. */
  clear(): void;
}

export function createSharedLoads<K, V>(): SharedLoads<K, V> {
  const underWay = new Map<K, Promise<V>>();
  return {
    load(key, start) {
      const pending = underWay.get(key);
      if (pending) return pending;
      const started = start().finally(() => {
        if (underWay.get(key) === started) underWay.delete(key);
      });
      underWay.set(key, started);
      return started;
    },
    clear() {
      underWay.clear();
    },
  };
}
