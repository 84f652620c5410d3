import { Counter, type CounterConfiguration, type LabelValues } from 'prom-client';

/** One label set of a counter: increments wait in a plain number until the counter is collected. */
export interface CounterSeries {
  inc(): void;
}

/**
 * A prom-client Counter, with `series(labels)` to bind a label set once for a hot path: prom-client
 * validates and hashes the labels on every increment, where a bound series adds to a plain number,
 * handed to the counter when it is collected (at scrape time). A series appears once counted.
 */
export function createSeriesCounter<T extends string>(
  config: Omit<CounterConfiguration<T>, 'collect'>,
): { counter: Counter<T>; series(labels: LabelValues<T>): CounterSeries } {
  const pending: Array<{ labels: LabelValues<T>; count: number }> = [];
  const counter = new Counter<T>({
    ...config,
    collect() {
      for (const entry of pending) {
        if (entry.count === 0) continue;
        this.inc(entry.labels, entry.count);
        entry.count = 0;
      }
    },
  });
  return {
    counter,
    series(labels) {
      const entry = { labels, count: 0 };
      pending.push(entry);
      return {
        inc() {
          entry.count += 1;
        },
      };
    },
  };
}
