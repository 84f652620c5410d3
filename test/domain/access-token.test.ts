import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newTokenId } from '../../src/domain/access-token.js';

describe('token ids', () => {
  it('are 128 bits, and never repeat across refills of the block they are cut from', () => {
    const ids = Array.from({ length: 1000 }, newTokenId);
    for (const id of ids) assert.equal(Buffer.from(id, 'base64url').length, 16);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('differ from one block to the next (the block is refilled, not reused)', () => {
    const first = Array.from({ length: 256 }, newTokenId);
    const second = Array.from({ length: 256 }, newTokenId);
    const seen = new Set(first);
    assert.equal(second.filter((id) => seen.has(id)).length, 0);
  });
});
