import { Counter, type CounterConfiguration, type LabelValues } from 'prom-client';

/** A label set's identity, whatever the order its labels were given in. */
export function labelSetKey(labels: Record<string, string | number>): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** One label set of a counter: increments wait in a plain number until the counter is collected. */
export interface CounterSeries {
  inc(): void;
}

/**
 * A prom-client Counter, with `series(labels)` to bind a label set once for a hot path: prom-client
 * validates and hashes the labels on every increment, where a bound series adds to a plain number,
 * handed to the counter when it is collected (at scrape time). A series appears once counted; a
 * label set bound twice is one series.
 */
export function createSeriesCounter<T extends string>(
  config: Omit<CounterConfiguration<T>, 'collect'>,
): { counter: Counter<T>; series(labels: LabelValues<T>): CounterSeries } {
  /** By label set, as prom-client keys its series. */
  const pending = new Map<string, { labels: LabelValues<T>; count: number }>();
  const counter = new Counter<T>({
    ...config,
    collect() {
      for (const entry of pending.values()) {
        if (entry.count === 0) continue;
        this.inc(entry.labels, entry.count);
        entry.count = 0;
      }
    },
  });
  return {
    counter,
    series(labels) {
      const key = labelSetKey(labels as Record<string, string | number>);
      let entry = pending.get(key);
      if (!entry) {
        entry = { labels, count: 0 };
        pending.set(key, entry);
      }
      const counted = entry;
      return {
        inc() {
          counted.count += 1;
        },
      };
    },
  };
}
