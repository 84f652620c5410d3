import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCounterStore } from '../../src/services/limits/create-counter-store.js';
import type { CounterStore } from '../../src/store/counters/counter-store.js';
import { COUNTER_STORE_KINDS, testClock } from '../helpers/limit-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../helpers/test-runtime.js';

const WINDOW_MS = 60_000;

for (const store of COUNTER_STORE_KINDS) {
  describe(`counter store lease on ${store.name === 'redis' ? 'Redis' : store.inProcess ? 'in-process memory' : TEST_DIALECT}`, () => {
    const clock = testClock();
    let runtime: TestRuntime;
    let counters: CounterStore;
    let n = 0;
    const group = () => {
      n += 1;
      const tag = `{lease-${process.pid}-${n}}`;
      return { a: `${tag}:a`, b: `${tag}:b` };
    };
    const specs = (limits: Record<string, number | null>) =>
      Object.entries(limits).map(([key, limit]) => ({ key, limit, freshWindowEnd: clock.now() + WINDOW_MS }));
    const hits = async (key: string) => (await counters.peek(key, clock.now())).hits;

    before(async () => {
      runtime = await createTestRuntime(store.env, { clock: clock.now });
      counters = await createCounterStore(runtime.deps, { inProcess: store.inProcess === true });
    });
    after(async () => {
      await counters.close();
      await runtime.close();
    });

    it('grants what every counter still allows, up to the amount asked, and adds it to all', async () => {
      const { a, b } = group();
      const first = await counters.lease(specs({ [a]: 10, [b]: 4 }), clock.now(), 3);
      assert.equal(first.granted, 3);
      assert.deepEqual(
        first.counters.map((c) => c.hits),
        [3, 3],
      );
      const second = await counters.lease(specs({ [a]: 10, [b]: 4 }), clock.now(), 3);
      assert.equal(second.granted, 1);
      assert.deepEqual(
        second.counters.map((c) => c.hits),
        [4, 4],
      );
      assert.equal(await hits(a), 4);
      assert.equal(await hits(b), 4);
    });

    it('grants nothing and changes nothing when any counter is exhausted, or over a lowered limit', async () => {
      const { a, b } = group();
      await counters.lease(specs({ [a]: null, [b]: 5 }), clock.now(), 5);
      const refused = await counters.lease(specs({ [a]: null, [b]: 5 }), clock.now(), 2);
      assert.equal(refused.granted, 0);
      assert.deepEqual(
        refused.counters.map((c) => c.hits),
        [5, 5],
      );
      const lowered = await counters.lease(specs({ [a]: null, [b]: 3 }), clock.now(), 1);
      assert.equal(lowered.granted, 0);
      assert.equal(await hits(a), 5);
      assert.equal(await hits(b), 5);
    });

    it('never grants more than the limit to concurrent leases', async () => {
      const { a, b } = group();
      const outcomes = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          counters.lease(specs({ [a]: 17, [b]: 100 }), clock.now(), 1 + (i % 4)),
        ),
      );
      assert.equal(
        outcomes.reduce((sum, o) => sum + o.granted, 0),
        17,
      );
      assert.equal(await hits(a), 17);
      assert.equal(await hits(b), 17);
    });

    it('gives leased hits back to the window they were leased in, not to a later one', async () => {
      const { a } = group();
      const leased = await counters.lease(specs({ [a]: 10 }), clock.now(), 6);
      const windowEnd = leased.counters[0]!.windowEnd;
      await counters.release({ counters: [{ key: a, cost: 2, windowEnd }] }, clock.now());
      assert.equal(await hits(a), 4);
      clock.advance(WINDOW_MS);
      await counters.lease(specs({ [a]: 10 }), clock.now(), 3);
      // The first window has ended: what it lent lapsed with it.
      await counters.release({ counters: [{ key: a, cost: 4, windowEnd }] }, clock.now());
      assert.equal(await hits(a), 3);
    });
  });
}
