import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRetryAfter } from '../../src/domain/retry-after.js';

describe('Retry-After', () => {
  it('reads Retry-After as seconds or an HTTP-date', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Wed, 25 Nov 2026 10:05:00 GMT', now), 300_000);
    assert.equal(parseRetryAfter('Wed, 25 Nov 2026 09:00:00 GMT', now), 0);
    // The obsolete forms RFC 9110 §5.6.7 says a recipient must accept too.
    assert.equal(parseRetryAfter('Wednesday, 25-Nov-26 10:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Wed Nov 25 10:00:30 2026', now), 30_000);
    for (const v of [undefined, null, '', 'soon', '-5', '1.5', 'tomorrow'])
      assert.equal(parseRetryAfter(v, now), null, String(v));
  });
});
