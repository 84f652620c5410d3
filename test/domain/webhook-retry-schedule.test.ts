import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MAX_RETRY_AFTER_MS,
  nextAttemptAt,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
} from '../../src/domain/webhook-retry-schedule.js';

describe('webhook retry schedule', () => {
  it('backs off exponentially-ish and keeps trying for more than 24 hours', () => {
    for (let i = 1; i < WEBHOOK_RETRY_DELAYS_MS.length; i++)
      assert.ok((WEBHOOK_RETRY_DELAYS_MS[i] as number) >= (WEBHOOK_RETRY_DELAYS_MS[i - 1] as number));
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    assert.ok(total >= 24 * 3_600_000, `${total / 3_600_000} h`);
    let at = 0;
    for (let attempts = 1; attempts < WEBHOOK_MAX_ATTEMPTS; attempts++) {
      const next = nextAttemptAt(at, attempts, null);
      assert.equal(next, at + (WEBHOOK_RETRY_DELAYS_MS[attempts - 1] as number));
      at = next as number;
    }
    assert.equal(nextAttemptAt(at, WEBHOOK_MAX_ATTEMPTS, null), null, 'given up after the last attempt');
  });

  it('waits longer when the receiver asks, never shorter, and at most a day', () => {
    assert.equal(nextAttemptAt(0, 1, 60_000), 60_000);
    assert.equal(nextAttemptAt(0, 1, 1_000), 5_000);
    assert.equal(nextAttemptAt(0, 1, 7 * 86_400_000), MAX_RETRY_AFTER_MS);
  });
});
