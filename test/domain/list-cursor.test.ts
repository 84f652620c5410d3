import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeListCursor, encodeListCursor } from '../../src/domain/list-cursor.js';

describe('list cursors', () => {
  it('round-trip a position', () => {
    const position = { at: 1_790_000_000_123, id: '9df02479-0182-4a34-bbec-ecf947c3d3df' };
    const cursor = encodeListCursor({ position, identifier: null });
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeListCursor(cursor), { position, identifier: null });
  });

  it('round-trip an identifier filter, with or without a position', () => {
    const identifier = { kind: 'emailAddress' as const, hash: 'q1W2e3R4t5Y6u7I8o9P0a_S-d' };
    for (const position of [null, { at: 1, id: 'a' }]) {
      const cursor = encodeListCursor({ position, identifier });
      assert.deepEqual(decodeListCursor(cursor), { position, identifier });
    }
    const forged = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');
    assert.equal(decodeListCursor(forged([null, null])), null);
    assert.equal(decodeListCursor(forged([1, 'a', 'nickname', 'h'])), null);
    assert.equal(decodeListCursor(forged([1, 'a', 'emailAddress', 'a@b.c'])), null);
    assert.equal(decodeListCursor(forged([1, 'a\u0000b'])), null);
  });

  it('reject anything this server did not issue', () => {
    for (const bad of [
      '',
      'not a cursor',
      'e30',
      Buffer.from('[1]').toString('base64url'),
      'x'.repeat(500),
    ]) {
      assert.equal(decodeListCursor(bad), null, bad);
    }
    assert.equal(decodeListCursor(Buffer.from('["1","id"]').toString('base64url')), null);
  });
});
