import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { waitFor } from './helpers/eventually.js';
import { createTestRuntime } from './helpers/test-runtime.js';

interface IntervalWatch {
  /** The intervals started since the watch began and not cleared. */
  readonly live: Set<unknown>;
  /** Ends the watch; returns `live`. */
  stop(): Set<unknown>;
}

/** Watches the intervals started and cleared: timers are read through globalThis at each call. */
function watchIntervals(): IntervalWatch {
  const { setInterval: set, clearInterval: clear } = globalThis;
  const live = new Set<unknown>();
  globalThis.setInterval = ((...args: Parameters<typeof set>) => {
    const timer = set(...args);
    live.add(timer);
    return timer;
  }) as typeof set;
  globalThis.clearInterval = ((timer: Parameters<typeof clear>[0]) => {
    live.delete(timer);
    clear(timer);
  }) as typeof clear;
  return {
    live,
    stop() {
      globalThis.setInterval = set;
      globalThis.clearInterval = clear;
      return live;
    },
  };
}

describe('the runtime', () => {
  let watch: IntervalWatch | null = null;
  afterEach(() => {
    watch?.stop();
    watch = null;
  });

  it('stops every timer it started when closed, the failed-authentication throttle included', async () => {
    watch = watchIntervals();
    const runtime = await createTestRuntime();
    assert.ok(watch.live.size > 0, 'the runtime starts timers of its own');
    await runtime.close();
    assert.equal(watch.stop().size, 0, 'an interval outlived the runtime');
  });

  it('closes every resource when one fails to close, and says why', async () => {
    watch = watchIntervals();
    const runtime = await createTestRuntime();
    const failure = new Error('cannot write the last uses');
    // The first to close: its own timer stopped, the write of the last uses fails.
    const close = runtime.http.passkeyUsage.close;
    runtime.http.passkeyUsage.close = async () => {
      await close();
      throw failure;
    };
    try {
      await assert.rejects(runtime.close(), (err) => err === failure);
      assert.equal(watch.stop().size, 0, 'an interval outlived the runtime');
      await assert.rejects(sql`select 1`.execute(runtime.deps.store.db), 'the database is still open');
      // A disconnection ends the client once its socket has closed.
      const redis = runtime.deps.redis;
      if (redis) assert.ok(await waitFor(async () => redis.status === 'end', 5000, 20), redis.status);
    } finally {
      // Left open, they would keep this process from ending whatever the assertions said.
      await runtime.deps.store.close().catch(() => {});
      runtime.deps.redis?.disconnect();
    }
  });
});
