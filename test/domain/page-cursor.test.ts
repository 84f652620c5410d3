import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodePageCursor, encodePageCursor } from '../../src/domain/page-cursor.js';

describe('page cursors', () => {
  it('read back the position they were made from', () => {
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), fc.uuid(), (at, id) => {
        assert.deepEqual(decodePageCursor(encodePageCursor({ at, id })), { at, id });
      }),
    );
  });

  it('answer null for anything else, never throwing', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const position = decodePageCursor(text);
        assert.ok(
          position === null || (Number.isSafeInteger(position.at) && typeof position.id === 'string'),
        );
      }),
    );
    for (const forged of [
      '',
      '!!',
      Buffer.from('{"at":1}').toString('base64url'),
      Buffer.from('[1.5,"a"]').toString('base64url'),
      Buffer.from('[1,"a b"]').toString('base64url'),
    ])
      assert.equal(decodePageCursor(forged), null);
  });
});
