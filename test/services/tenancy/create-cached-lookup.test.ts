import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPromise } from '../../../src/services/maybe-promise.js';
import { createCachedLookup } from '../../../src/services/tenancy/create-cached-lookup.js';
import { heapAfterCollection } from '../../helpers/heap.js';

const ENTRIES = 24;
const TEXT_CHARS = 1_000_000;

describe('cached lookups', () => {
  it('keep their keys, not the text the keys were cut from', async () => {
    const lookup = createCachedLookup<string | undefined>({
      ttlMs: 60_000,
      maxEntries: 100,
      clock: Date.now,
      load: async () => undefined,
    });
    const keyCutFromText = (i: number) => {
      // Like a client id parsed out of a request body: a substring of a large string.
      const text = `client_id=${String(i).padStart(40, '0')}&pad=${'a'.repeat(TEXT_CHARS)}`;
      return text.slice('client_id='.length, text.indexOf('&'));
    };
    await lookup.get(keyCutFromText(-1));
    const before = heapAfterCollection();
    for (let i = 0; i < ENTRIES; i += 1) await lookup.get(keyCutFromText(i));
    const kept = heapAfterCollection() - before;
    for (let i = 0; i < ENTRIES; i += 1) assert.ok(lookup.peek(keyCutFromText(i)), `entry ${i} is cached`);
    assert.ok(kept < (ENTRIES * TEXT_CHARS) / 4, `${(kept / 1e6).toFixed(1)} MB still reachable`);
  });

  it('answer a fresh entry at once, and through a promise while it is loaded or stale', async () => {
    let now = 0;
    let loads = 0;
    const lookup = createCachedLookup<number>({
      ttlMs: 1000,
      maxEntries: 100,
      clock: () => now,
      load: async () => (loads += 1),
    });
    const first = lookup.get('key');
    assert.ok(isPromise(first));
    assert.equal(await first, 1);
    assert.equal(lookup.get('key'), 1);
    now += 1000;
    const stale = lookup.get('key');
    assert.ok(isPromise(stale));
    assert.equal(await stale, 2);
  });

  it('hold a value that expires by itself only until it expires, within the time to live', async () => {
    let now = 0;
    let loads = 0;
    const lookup = createCachedLookup<{ load: number; expiresAt: number | null }>({
      ttlMs: 1000,
      maxEntries: 100,
      clock: () => now,
      load: async (key) => {
        loads += 1;
        return { load: loads, expiresAt: key === 'soon' ? 300 : null };
      },
      expiresAt: (value) => value.expiresAt,
    });
    await lookup.get('soon');
    await lookup.get('never');
    now = 299;
    assert.ok(lookup.peek('soon') && lookup.peek('never'));
    now = 300;
    assert.equal(lookup.peek('soon'), undefined, 'expired: loaded again');
    assert.deepEqual(lookup.peek('never')?.value, { load: 2, expiresAt: null }, 'the others stay');
    assert.equal((await lookup.get('soon')).load, 3);
  });

  it('keep a load under way when a change is announced out of the cache, and share a load', async () => {
    let loads = 0;
    const releases: Array<() => void> = [];
    const lookup = createCachedLookup<number>({
      ttlMs: 60_000,
      maxEntries: 100,
      clock: Date.now,
      load: () => {
        loads += 1;
        const load = loads;
        return new Promise((resolve) => releases.push(() => resolve(load)));
      },
    });
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const first = lookup.get('key');
    const joined = lookup.get('key');
    assert.equal(loads, 1, 'concurrent misses share one load');
    lookup.clear();
    await tick();
    assert.equal(loads, 2, 'the callers share one load begun after the change');
    releases.shift()?.();
    await tick();
    assert.equal(lookup.peek('key'), undefined, 'the load begun before the change is not cached');
    releases.shift()?.();
    assert.deepEqual(await Promise.all([first, joined]), [2, 2]);
    assert.equal(lookup.get('key'), 2);
  });

  it('pass a failed load on to its callers and cache nothing', async () => {
    let fail = true;
    const lookup = createCachedLookup<number>({
      ttlMs: 60_000,
      maxEntries: 100,
      clock: Date.now,
      load: async () => {
        if (fail) throw new Error('database down');
        return 1;
      },
    });
    await assert.rejects(Promise.resolve(lookup.get('key')), /database down/);
    fail = false;
    assert.equal(await lookup.get('key'), 1);
  });
});
