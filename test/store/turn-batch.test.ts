import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TurnBatch } from '../../src/store/turn-batch.js';

describe('work asked for in one turn of the event loop', () => {
  it('is handed over together, in the order asked, once the turn ends', async () => {
    const batches: number[][] = [];
    const batch = new TurnBatch<number>(() => batches.push(batch.take()));
    batch.add(1);
    batch.add(2);
    await null;
    batch.add(3);
    assert.deepEqual(batches, [], 'nothing before the turn ends');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(batches, [[1, 2, 3]]);
  });

  it('starts a new batch with the first item asked after a take', async () => {
    const batches: number[][] = [];
    const batch = new TurnBatch<number>(() => batches.push(batch.take()));
    batch.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    batch.add(2);
    assert.equal(batch.size, 1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(batches, [[1], [2]]);
    assert.equal(batch.size, 0);
  });
});
