import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createCounterStore } from '../../../src/services/limits/create-counter-store.js';
import type { CounterStore } from '../../../src/store/counters/counter-store.js';
import { COUNTER_STORE_KINDS, testClock } from '../../helpers/limit-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

const WINDOW_MS = 60_000;

for (const store of COUNTER_STORE_KINDS) {
  describe(`counter store release on ${store.name === 'redis' ? 'Redis' : store.inProcess ? 'in-process memory' : TEST_DIALECT}`, () => {
    const clock = testClock();
    let runtime: TestRuntime;
    let counters: CounterStore;
    let n = 0;
    /** A group of keys no other test (or test file sharing the Redis) uses. */
    const group = () => {
      n += 1;
      const tag = `{release-${process.pid}-${n}}`;
      return { a: `${tag}:a`, b: `${tag}:b` };
    };
    const hit = (keys: string[], cost = 1) =>
      counters.take(
        keys.map((key) => ({ key, limit: null, freshWindowEnd: clock.now() + WINDOW_MS })),
        clock.now(),
        cost,
      );
    const hits = async (key: string) => (await counters.peek(key, clock.now())).hits;

    before(async () => {
      runtime = await createTestRuntime(store.env, { clock: clock.now });
      counters = await createCounterStore(runtime.deps, { inProcess: store.inProcess === true });
    });
    after(async () => {
      await counters.close();
      await runtime.close();
    });

    it('gives hits back from live windows, never below zero', async () => {
      const { a, b } = group();
      await hit([a], 5);
      await hit([b], 1);
      await counters.release(
        {
          counters: [
            { key: a, cost: 2 },
            { key: b, cost: 2 },
          ],
        },
        clock.now(),
      );
      assert.equal(await hits(a), 3);
      assert.equal(await hits(b), 0);
      // A released counter keeps its window: the next hit counts into it.
      const { counters: after } = await hit([b]);
      assert.equal(after[0]?.hits, 1);
    });

    it("forgets a drained counter and gives its live hits back from the others' too", async () => {
      const { a, b } = group();
      await hit([a, b], 3);
      await hit([a], 4);
      await counters.release(
        { counters: [{ key: a, cost: 1 }], drain: { key: b, alsoFrom: [a] } },
        clock.now(),
      );
      assert.equal(await hits(b), 0);
      assert.equal(await hits(a), 3);
    });

    it('leaves ended windows alone', async () => {
      const { a, b } = group();
      await hit([b], 4);
      clock.advance(WINDOW_MS);
      await hit([a], 2);
      // b's window has ended: draining it gives nothing back.
      await counters.release({ counters: [], drain: { key: b, alsoFrom: [a] } }, clock.now());
      assert.equal(await hits(a), 2);
      clock.advance(WINDOW_MS);
      await counters.release({ counters: [{ key: a, cost: 1 }] }, clock.now());
      const { counters: fresh } = await hit([a]);
      assert.equal(fresh[0]?.hits, 1);
    });

    const drain = (a: string, b: string) =>
      counters.release({ counters: [], drain: { key: b, alsoFrom: [a] } }, clock.now());
    /**
     * `count` operations on a and b at once, every `every`-th draining b into a, the others hitting
     * both; a then holds at least b's hits, and b none below zero.
     */
    const race = async (a: string, b: string, count: number, every: number) => {
      await Promise.all(
        Array.from({ length: count }, (_, i) => (i % every === every - 1 ? drain(a, b) : hit([a, b]))),
      );
      const left = { a: await hits(a), b: await hits(b) };
      assert.ok(left.a >= left.b && left.b >= 0, JSON.stringify(left));
      return left;
    };

    it('runs beside concurrent takes of the same counters', async () => {
      const { a, b } = group();
      const left = await race(a, b, 60, 3);
      await drain(a, b);
      assert.equal(await hits(a), left.a - left.b);
    });

    it('runs beside concurrent takes of counters that do not exist yet', async () => {
      // Rows being inserted cannot be locked by those who do not see them yet: each group starts
      // with takes and releases racing for its first rows.
      for (let round = 0; round < 30; round += 1) {
        const { a, b } = group();
        await race(a, b, 8, 2);
      }
    });

    describe('after a take, in the same step', () => {
      const limited = (keys: string[], limit: number) =>
        keys.map((key) => ({ key, limit, freshWindowEnd: clock.now() + WINDOW_MS }));

      it('releases when the take is granted, answering the counts the take left', async () => {
        const { a, b } = group();
        await hit([a], 2);
        await hit([a, b], 1);
        const outcome = await counters.take(limited([a, b], 5), clock.now(), 1, {
          counters: [],
          drain: { key: b, alsoFrom: [a] },
        });
        assert.deepEqual(
          outcome.counters.map((c) => c.hits),
          [4, 2],
        );
        assert.equal(outcome.taken, true);
        // b held 2 with this take: forgotten, and given back from a.
        assert.deepEqual([await hits(a), await hits(b)], [2, 0]);
        const back = await counters.take(limited([a], 5), clock.now(), 1, {
          counters: [{ key: a, cost: 1 }],
        });
        assert.equal(back.taken, true);
        assert.equal(await hits(a), 2, 'a take given back at once leaves the count as it was');
      });

      it('changes nothing, releases nothing, when the take is refused', async () => {
        const { a, b } = group();
        await hit([a], 3);
        await hit([b], 2);
        const outcome = await counters.take(limited([a, b], 3), clock.now(), 1, {
          counters: [],
          drain: { key: b, alsoFrom: [a] },
        });
        assert.equal(outcome.taken, false);
        assert.deepEqual(
          outcome.counters.map((c) => c.hits),
          [3, 2],
        );
        assert.deepEqual([await hits(a), await hits(b)], [3, 2]);
      });

      it('lets no concurrent take see the taken hit before it is given back', async () => {
        const { a } = group();
        // Each take is given back at once: every one of them must find the counter at zero.
        const outcomes = await Promise.all(
          Array.from({ length: 40 }, () =>
            counters.take(limited([a], 1), clock.now(), 1, { counters: [{ key: a, cost: 1 }] }),
          ),
        );
        assert.deepEqual(
          outcomes.map((o) => o.taken),
          outcomes.map(() => true),
        );
        assert.equal(await hits(a), 0);
      });
    });
  });
}

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
