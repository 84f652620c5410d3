import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { batchedRead } from '../../src/store/batched-read.js';
import type { Database } from '../../src/store/schema.js';

/** Stands for a store's handle, or a transaction of it: the batcher reads nothing else of it. */
const handle = (isTransaction = false) => ({ isTransaction }) as unknown as Kysely<Database>;

/** A read of squares that records each statement's keys. */
function squares(fail?: (keys: readonly number[]) => boolean) {
  const statements: number[][] = [];
  const read = batchedRead<number, number>(async (_db, keys) => {
    statements.push([...keys]);
    if (fail?.(keys)) throw new Error('statement failed');
    return keys.map((k) => (k >= 0 ? k * k : undefined));
  });
  return { read, statements };
}

describe('reads by key batched per turn of the event loop', () => {
  it('runs the reads asked in one turn as one statement, and answers each with its own row', async () => {
    const { read, statements } = squares();
    const db = handle();
    const answers = await Promise.all([read(db, 3), read(db, -1), read(db, 3), read(db, 7)]);
    assert.deepEqual(answers, [9, undefined, 9, 49]);
    assert.deepEqual(statements, [[3, -1, 3, 7]]);
  });

  it('answers nothing for a key the statement left a hole for', async () => {
    const read = batchedRead<number, number>(async (_db, keys) => {
      const found: number[] = new Array(keys.length);
      found[0] = 1;
      return found;
    });
    const db = handle();
    assert.deepEqual(await Promise.all([read(db, 1), read(db, 2)]), [1, undefined]);
  });

  it('starts a new statement for reads asked after the turn ended', async () => {
    const { read, statements } = squares();
    const db = handle();
    const first = read(db, 1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = read(db, 2);
    assert.deepEqual(await Promise.all([first, second]), [1, 4]);
    assert.deepEqual(statements, [[1], [2]]);
  });

  it('keeps each handle’s reads apart', async () => {
    const { read, statements } = squares();
    const [a, b] = [handle(), handle()];
    assert.deepEqual(await Promise.all([read(a, 1), read(b, 2), read(a, 3)]), [1, 4, 9]);
    assert.deepEqual(statements, [[1, 3], [2]]);
  });

  it('runs a read inside a transaction alone and at once, in it', async () => {
    const { read, statements } = squares();
    const trx = handle(true);
    const reading = read(trx, 5);
    // Already asked, before the turn ends: a transaction's later statements may depend on it.
    assert.deepEqual(statements, [[5]]);
    assert.equal(await reading, 25);
  });

  it('gives a failed statement’s error to each of its reads, and runs the next turn’s', async () => {
    const { read, statements } = squares((keys) => keys.includes(13));
    const db = handle();
    const failed = await Promise.allSettled([read(db, 13), read(db, 2)]);
    assert.deepEqual(
      failed.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal(await read(db, 2), 4);
    assert.deepEqual(statements, [[13, 2], [2]]);
  });

  it('splits a turn of more than 500 reads into statements of at most 500', async () => {
    const { read, statements } = squares();
    const db = handle();
    const keys = Array.from({ length: 1201 }, (_, i) => i);
    assert.deepEqual(
      await Promise.all(keys.map((k) => read(db, k))),
      keys.map((k) => k * k),
    );
    assert.deepEqual(
      statements.map((s) => s.length),
      [500, 500, 201],
    );
    assert.deepEqual(statements.flat(), keys);
  });
});
