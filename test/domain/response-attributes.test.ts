import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  normalizeResponseAttributes,
  RESPONSE_MAX_CHARS,
  responseTextHash,
} from '../../src/domain/response-attributes.js';
import { normalizeResponseGuid } from '../../src/domain/response-guid.js';
import { AppError } from '../../src/errors.js';

const fieldOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof AppError);
    return `${err.code} ${err.field}`;
  }
  assert.fail('expected an AppError');
};

describe('response attributes', () => {
  it('trims department and responseBy, keeps the response text as written', () => {
    assert.deepEqual(
      normalizeResponseAttributes({ department: '  Care ', response: ' Thanks!\n', responseBy: ' Sam ' }),
      { department: 'Care', response: ' Thanks!\n', responseBy: 'Sam' },
    );
    assert.equal(
      normalizeResponseAttributes({ department: 'D', response: 'x', responseBy: '  ' }).responseBy,
      null,
    );
    assert.equal(normalizeResponseAttributes({ department: 'D', response: 'x' }).responseBy, null);
  });

  it('refuses blank, over-long and NUL-bearing values', () => {
    assert.equal(
      fieldOf(() => normalizeResponseAttributes({ department: ' ', response: 'x' })),
      'INVALID_PROPERTY_VALUE attributes.department',
    );
    assert.equal(
      fieldOf(() => normalizeResponseAttributes({ department: 'D', response: '\t' })),
      'INVALID_PROPERTY_VALUE attributes.response',
    );
    assert.equal(
      fieldOf(() => normalizeResponseAttributes({ department: 'D', response: 'a\u0000b' })),
      'INVALID_PROPERTY_VALUE attributes.response',
    );
    assert.equal(
      fieldOf(() =>
        normalizeResponseAttributes({ department: 'D', response: 'x', responseBy: 'n'.repeat(201) }),
      ),
      'INVALID_PROPERTY_VALUE attributes.responseBy',
    );
    // The limit counts characters (code points), not UTF-16 units: 65,535 emoji are allowed.
    const emoji = '😀'.repeat(RESPONSE_MAX_CHARS);
    assert.equal(normalizeResponseAttributes({ department: 'D', response: emoji }).response, emoji);
    assert.equal(
      fieldOf(() => normalizeResponseAttributes({ department: 'D', response: `${emoji}x` })),
      'INVALID_PROPERTY_VALUE attributes.response',
    );
  });

  it('hashes the exact text: identical texts collide, any difference does not', () => {
    assert.equal(responseTextHash('Thanks!'), responseTextHash('Thanks!'));
    assert.notEqual(responseTextHash('Thanks!'), responseTextHash('Thanks! '));
  });

  it('accepts GUIDs in either case and stores them in lower case', () => {
    assert.equal(
      normalizeResponseGuid('9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D'),
      '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
    );
    for (const bad of [
      '',
      'not-a-guid',
      '9b1deb4d3b7d4bad9bdd2b0d7b3dcb6d',
      'urn:uuid:9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
    ]) {
      assert.equal(normalizeResponseGuid(bad), null, bad);
    }
  });
});
