import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSharedLoads } from '../../src/store/create-shared-loads.js';

describe('shared loads', () => {
  it('give concurrent callers of a key one load, and start a new one once it settled', async () => {
    const loads = createSharedLoads<string, number>();
    let started = 0;
    const start = async () => (started += 1);
    const [a, b] = await Promise.all([loads.load('k', start), loads.load('k', start)]);
    assert.deepEqual([a, b, started], [1, 1, 1]);
    assert.equal(await loads.load('k', start), 2);
    assert.equal(await loads.load('other', start), 3);
  });

  it('keep no failure, and let no caller join a load begun before clear()', async () => {
    const loads = createSharedLoads<string, number>();
    await assert.rejects(
      loads.load('k', async () => Promise.reject(new Error('down'))),
      /down/,
    );
    assert.equal(await loads.load('k', async () => 1), 1);
    let release = (_value: number) => {};
    const before = loads.load('k', () => new Promise((resolve) => (release = resolve)));
    loads.clear();
    const after = loads.load('k', async () => 2);
    release(1);
    assert.deepEqual(await Promise.all([before, after]), [1, 2]);
  });
});
