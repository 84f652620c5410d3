import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeListCursor, encodeListCursor, listCursorKey } from '../../src/domain/list-cursor.js';
import { seal } from '../../src/domain/seal.js';

const key = listCursorKey('a server hash key of at least 32 characters', 'application-a');

describe('list cursors', () => {
  it('round-trip a position', () => {
    const position = { at: 1_790_000_000_123, id: '9df02479-0182-4a34-bbec-ecf947c3d3df' };
    const cursor = encodeListCursor(key, { position, identifier: null });
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeListCursor(key, cursor), { position, identifier: null });
  });

  it('round-trip an identifier filter, with or without a position', () => {
    const identifier = { kind: 'emailAddress' as const, hash: 'q1W2e3R4t5Y6u7I8o9P0a_S-d' };
    for (const position of [null, { at: 1, id: 'a' }]) {
      const cursor = encodeListCursor(key, { position, identifier });
      assert.ok(cursor.length <= 400, 'longer than the query parameter allows');
      assert.deepEqual(decodeListCursor(key, cursor), { position, identifier });
    }
    // What the key seals is still checked: a cursor holds a position and a filter, nothing else.
    const forged = (parts: unknown[]) => seal(key, JSON.stringify(parts)).toString('base64url');
    assert.equal(decodeListCursor(key, forged([null, null])), null);
    assert.equal(decodeListCursor(key, forged([1, 'a', 'nickname', 'h'])), null);
    assert.equal(decodeListCursor(key, forged([1, 'a', 'emailAddress', 'a@b.c'])), null);
    assert.equal(decodeListCursor(key, forged([1, 'a\u0000b'])), null);
  });

  it('show nothing of the filter they keep, in any decoding', () => {
    const hash = 'q1W2e3R4t5Y6u7I8o9P0a_S-dQ1w2E3r4T5y6U7i8O9';
    const cursor = encodeListCursor(key, { position: null, identifier: { kind: 'emailAddress', hash } });
    const bytes = Buffer.from(cursor, 'base64url');
    const hashBytes = Buffer.from(hash, 'base64url');
    for (const text of [cursor, bytes.toString('latin1'), bytes.toString('utf8'), bytes.toString('hex')]) {
      assert.ok(!text.includes(hash) && !text.includes('emailAddress'), text);
      assert.ok(!text.includes(hashBytes.toString('hex')), text);
    }
    assert.equal(bytes.indexOf(hashBytes), -1);
    // Two cursors of one page differ: nothing links them to each other or to the filter.
    assert.notEqual(
      encodeListCursor(key, { position: null, identifier: { kind: 'emailAddress', hash } }),
      cursor,
    );
  });

  it('reject anything this server did not issue with this key', () => {
    for (const bad of [
      '',
      'not a cursor',
      'e30',
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('["1","id"]').toString('base64url'),
      // A readable position is no longer a cursor this server issues.
      Buffer.from('[1,"id"]').toString('base64url'),
      Buffer.from('[null,null,"emailAddress","q1W2e3R4t5Y6u7I8o9P0a_S-d"]').toString('base64url'),
      'x'.repeat(500),
    ]) {
      assert.equal(decodeListCursor(key, bad), null, bad);
    }
    const cursor = encodeListCursor(key, { position: { at: 1, id: 'a' }, identifier: null });
    const other = listCursorKey('a server hash key of at least 32 characters', 'application-b');
    assert.equal(decodeListCursor(other, cursor), null, 'a cursor of another application');
    const bytes = Buffer.from(cursor, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const tampered = Buffer.from(bytes);
      tampered[i] = (tampered[i] as number) ^ 1;
      assert.equal(decodeListCursor(key, tampered.toString('base64url')), null, `byte ${i} changed`);
    }
  });
});
