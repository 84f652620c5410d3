import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { createSeriesCounter } from '../../../src/services/metrics/series-counter.js';
import { SeriesHistogram } from '../../../src/services/metrics/series-histogram.js';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LABEL_SETS = [
  { route: '/a/:id', method: 'GET', status_class: '2xx' },
  { route: '/a/:id', method: 'GET', status_class: '4xx' },
  { route: 'unmatched', method: 'other', status_class: '4xx' },
  { route: '/b "quoted" \\ path\n', method: 'POST', status_class: '5xx' },
];

/** Observations: which label set, and a value on, between or beyond the bounds. */
const observations = fc.array(
  fc.record({
    set: fc.integer({ min: 0, max: LABEL_SETS.length - 1 }),
    value: fc.oneof(fc.constantFrom(...BUCKETS, 0, 10.5, 1e-9), fc.double({ min: 0, max: 20, noNaN: true })),
  }),
  { maxLength: 200 },
);

describe('series bound once write what prom-client writes', () => {
  it('a histogram, for any observations', async () => {
    await fc.assert(
      fc.asyncProperty(observations, async (seen) => {
        const theirs = new Registry();
        const ours = new Registry();
        const reference = new Histogram({
          name: 'h_seconds',
          help: 'a histogram',
          labelNames: ['route', 'method', 'status_class'],
          buckets: BUCKETS,
          registers: [theirs],
        });
        const histogram = new SeriesHistogram('h_seconds', 'a histogram', BUCKETS, ours);
        for (const { set, value } of seen) {
          const labels = LABEL_SETS[set] as (typeof LABEL_SETS)[number];
          reference.observe(labels, value);
          // Bound anew each time: the same label set is the same series.
          histogram.series({ ...labels }).observe(value);
        }
        assert.equal(await ours.metrics(), await theirs.metrics());
        assert.deepEqual(await ours.getMetricsAsJSON(), await theirs.getMetricsAsJSON());
      }),
      { numRuns: 200 },
    );
  });

  it('a counter, for any increments, as of each scrape', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(observations, { maxLength: 4 }), async (rounds) => {
        const theirs = new Registry();
        const ours = new Registry();
        const reference = new Counter({
          name: 'c_total',
          help: 'a counter',
          labelNames: ['route', 'method', 'status_class'],
          registers: [theirs],
        });
        const { series } = createSeriesCounter({
          name: 'c_total',
          help: 'a counter',
          labelNames: ['route', 'method', 'status_class'],
          registers: [ours],
        });
        const bound = LABEL_SETS.map((labels) => series(labels));
        for (const round of rounds) {
          for (const { set } of round) {
            reference.inc(LABEL_SETS[set] as (typeof LABEL_SETS)[number]);
            bound[set]?.inc();
          }
          // The same lines; a series appears where it was first counted in one, first bound in the other.
          const lines = async (registry: Registry) => (await registry.metrics()).split('\n').sort();
          assert.deepEqual(await lines(ours), await lines(theirs));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('a histogram reset with its registry counts from zero again', async () => {
    const registry = new Registry();
    const histogram = new SeriesHistogram('r_seconds', 'r', BUCKETS, registry);
    const series = histogram.series({ route: '/a' });
    series.observe(0.002);
    registry.resetMetrics();
    assert.match(await registry.metrics(), /^r_seconds_count\{route="\/a"\} 0$/m);
    series.observe(0.002);
    assert.match(await registry.metrics(), /^r_seconds_count\{route="\/a"\} 1$/m);
    assert.match(await registry.metrics(), /^r_seconds_bucket\{le="0.0025",route="\/a"\} 1$/m);
  });

  it('refuses a value that is not a number, as prom-client does', () => {
    const histogram = new SeriesHistogram('n_seconds', 'n', BUCKETS, new Registry());
    assert.throws(() => histogram.series({}).observe(Number.NaN), TypeError);
  });
});
