import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { CounterStoreUnavailable } from '../../../src/store/counters/counter-store.js';
import { watchRedisConnection } from '../../../src/store/counters/watch-redis-connection.js';
import { freePort, killRedis, startRedis } from '../../helpers/redis-server.js';

const SETTLE_MS = 2000;
/** The settle period, a second the uptime can read long, and room to spare. */
const SETTLED_BOUND_MS = 10_000;

describe('the settle period after a Redis server starts', () => {
  let redis: ChildProcess | undefined;
  let client: Redis;

  before(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    client = new Redis(`redis://127.0.0.1:${port}`, { commandTimeout: 1000 });
    client.on('error', () => {});
  });
  after(async () => {
    client?.disconnect();
    await killRedis(redis);
  });

  it('answers nothing while the server is younger than the period, then settles, by its uptime', async () => {
    const watch = watchRedisConnection(client, { settleMs: SETTLE_MS, silenceMs: 3000, readyWaitMs: 2000 });
    await assert.rejects(watch.settled(), CounterStoreUnavailable, 'a server started moments ago');
    const until = Date.now() + SETTLED_BOUND_MS;
    for (;;) {
      try {
        await watch.settled();
        break;
      } catch (err) {
        assert.ok(err instanceof CounterStoreUnavailable);
        assert.ok(Date.now() < until, `still settling after ${SETTLED_BOUND_MS} ms`);
        await sleep(100);
      }
    }
    // Another instance connecting now finds the server up long enough: it waits for nothing.
    const late = watchRedisConnection(client, { settleMs: SETTLE_MS, silenceMs: 3000, readyWaitMs: 2000 });
    await late.settled();
  });
});

describe('a Redis connection still being made', () => {
  it('is waited for before the server is asked how long it has been up', async (t) => {
    const url = process.env.REDIS_URL;
    if (!url) return t.skip('needs REDIS_URL');
    // As the runtime builds its client: no offline queue, so a command sent while connecting fails.
    const client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, commandTimeout: 1000 });
    client.on('error', () => {});
    try {
      const connecting = client.connect().catch(() => {});
      assert.equal(client.status, 'connecting');
      const watch = watchRedisConnection(client, { settleMs: 1, silenceMs: 3000, readyWaitMs: 2000 });
      await watch.settled();
      await connecting;
    } finally {
      client.disconnect();
    }
  });
});
