import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRetryBackoff } from '../../../src/services/health/create-retry-backoff.js';

describe('createRetryBackoff', () => {
  it('waits a little longer after each failure in a row, up to its bound, and starts over after a success', () => {
    const backoff = createRetryBackoff({ firstMs: 100, maxMs: 400 });
    const waits = Array.from({ length: 6 }, () => backoff.next());
    assert.deepEqual(waits, [100, 150, 225, 338, 400, 400]);
    backoff.reset();
    assert.equal(backoff.next(), 100);
  });
});
