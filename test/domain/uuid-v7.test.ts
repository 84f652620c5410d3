import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uuidV7 } from '../../src/domain/uuid-v7.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidV7', () => {
  it('leads with the time, so ids of different milliseconds sort by it', () => {
    const at = Date.UTC(2026, 0, 1);
    assert.match(uuidV7(at), V7);
    assert.ok(uuidV7(at) < uuidV7(at + 1));
  });

  it('numbers ids of one millisecond in sequence, so they sort in that order', () => {
    const at = Date.UTC(2026, 0, 1);
    const sequences = [0, 1, 2, 15, 16, 255, 4095, 4096, 262_143, 262_144, 2 ** 30 - 1];
    const ids = sequences.map((n) => uuidV7(at, n));
    for (const id of ids) assert.match(id, V7);
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(
      ids.every((id) => id.slice(0, 13) === ids[0]?.slice(0, 13)),
      'the same time leads them all',
    );
  });
});
