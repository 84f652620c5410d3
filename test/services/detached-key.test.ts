import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { detachedKey } from '../../src/services/detached-key.js';

describe('detached keys', () => {
  it('equal the value they copy, lone surrogates and NULs included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (value) => {
        assert.equal(detachedKey(value), value);
      }),
      { numRuns: 500 },
    );
    assert.equal(detachedKey('a\uD800b\uDFFF\u0000'), 'a\uD800b\uDFFF\u0000');
  });
});
