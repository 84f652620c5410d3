import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { createCounterStore } from '../../../src/services/limits/create-counter-store.js';
import type { CounterStore } from '../../../src/store/counters/counter-store.js';
import { testClock } from '../../helpers/limit-fixtures.js';
import { createTestRuntime, TEST_REDIS_URL, type TestRuntime } from '../../helpers/test-runtime.js';

describe('counter operations on Redis, per turn of the event loop, and their scripts', {
  skip: !TEST_REDIS_URL,
}, () => {
  const clock = testClock();
  let runtime: TestRuntime;
  let counters: CounterStore;
  const events: string[] = [];
  const tag = `{turns-${process.pid}}`;

  before(async () => {
    runtime = await createTestRuntime({ REDIS_URL: TEST_REDIS_URL ?? '' }, { clock: clock.now });
    counters = await createCounterStore(runtime.deps);
    const redis = runtime.deps.redis as Redis;
    const evalsha = redis.evalsha.bind(redis) as (...args: unknown[]) => Promise<unknown>;
    redis.evalsha = ((...args: unknown[]) => {
      events.push('sent');
      return evalsha(...args);
    }) as typeof redis.evalsha;
  });
  after(async () => {
    await counters.close();
    await runtime.close();
  });

  const take = (key: string, cost: number, limit: number | null = null) =>
    counters.take([{ key: `${tag}:${key}`, limit, freshWindowEnd: clock.now() + 60_000 }], clock.now(), cost);

  it('sends the operations asked for in one turn together once it ends, each reply to its caller', async () => {
    await take('warm', 1); // the scripts are loaded, so each operation is one call
    events.length = 0;
    const outcomes = Promise.all([take('a', 3), take('b', 5), take('a', 2), take('c', 2, 1)]);
    events.push('asked');
    queueMicrotask(() => events.push('turn still running'));
    const [a1, b, a2, c] = await outcomes;
    assert.deepEqual(events, ['asked', 'turn still running', 'sent', 'sent', 'sent', 'sent']);
    // In the order asked: the second take of a counts on the first.
    assert.deepEqual(
      [a1, b, a2, c].map((o) => [o.taken, o.counters[0]?.hits]),
      [
        [true, 3],
        [true, 5],
        [true, 5],
        [false, 0],
      ],
    );
  });

  it('sends a script Redis no longer has again, for every operation of the turn', async () => {
    // As after a Redis restart or failover: other instances' operations meet the same and recover.
    await (runtime.deps.redis as Redis).script('FLUSH');
    const [d1, d2] = await Promise.all([take('d', 1), take('d', 1)]);
    assert.deepEqual([d1.counters[0]?.hits, d2.counters[0]?.hits], [1, 2]);
    assert.equal((await take('d', 1)).counters[0]?.hits, 3);
  });
});
