import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupBy } from '../../src/domain/group-by.js';

describe('groupBy', () => {
  it('groups by key, keeping the order items and keys first appear in', () => {
    const items = [
      { app: 'b', n: 1 },
      { app: 'a', n: 2 },
      { app: 'b', n: 3 },
    ];
    assert.deepEqual(
      [...groupBy(items, (i) => i.app)].map(([k, g]) => [k, g.map((i) => i.n)]),
      [
        ['b', [1, 3]],
        ['a', [2]],
      ],
    );
    assert.equal(groupBy([], String).size, 0);
  });
});
