import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CompactionState,
  isCompactionDue,
  isInWindow,
  windowOpenedAt,
} from '../../src/domain/compaction-window.js';

const at = (iso: string) => Date.parse(iso);
const window = (startMinute: number, endMinute: number) => ({ startMinute, endMinute });

describe('compaction window (UTC)', () => {
  it('contains its start and not its end', () => {
    const w = window(120, 300); // 02:00-05:00
    assert.equal(isInWindow(w, at('2026-06-01T01:59:59Z')), false);
    assert.equal(isInWindow(w, at('2026-06-01T02:00:00Z')), true);
    assert.equal(isInWindow(w, at('2026-06-01T04:59:59Z')), true);
    assert.equal(isInWindow(w, at('2026-06-01T05:00:00Z')), false);
  });

  it('wraps midnight when the end is not after the start', () => {
    const w = window(23 * 60, 60); // 23:00-01:00
    assert.equal(isInWindow(w, at('2026-06-01T22:59:00Z')), false);
    assert.equal(isInWindow(w, at('2026-06-01T23:00:00Z')), true);
    assert.equal(isInWindow(w, at('2026-06-02T00:30:00Z')), true);
    assert.equal(isInWindow(w, at('2026-06-02T01:00:00Z')), false);
    // The occurrence that contains 00:30 opened the day before.
    assert.equal(windowOpenedAt(w, at('2026-06-02T00:30:00Z')), at('2026-06-01T23:00:00Z'));
    assert.equal(windowOpenedAt(w, at('2026-06-01T23:30:00Z')), at('2026-06-01T23:00:00Z'));
    assert.equal(windowOpenedAt(w, at('2026-06-01T12:00:00Z')), null);
  });

  it('00:00-24:00 is any time', () => {
    const w = window(0, 1440);
    for (let minute = 0; minute < 1440; minute += 7) {
      assert.equal(isInWindow(w, at('2026-06-01T00:00:00Z') + minute * 60_000), true);
    }
  });

  it('decides when the worker compacts', () => {
    const base: CompactionState = {
      mode: 'after-erasure',
      window: window(120, 300),
      now: at('2026-06-01T03:00:00Z'),
      owedSince: at('2026-05-31T18:00:00Z'),
      lastStartedAt: null,
    };
    assert.equal(isCompactionDue(base), true);
    assert.equal(isCompactionDue({ ...base, mode: 'off' }), false);
    assert.equal(isCompactionDue({ ...base, owedSince: null }), false, 'nothing erased');
    assert.equal(isCompactionDue({ ...base, now: at('2026-06-01T06:00:00Z') }), false, 'outside the window');
    // after-erasure compacts again as soon as another erasure is owed.
    assert.equal(isCompactionDue({ ...base, lastStartedAt: at('2026-06-01T02:10:00Z') }), true);

    const daily = { ...base, mode: 'daily' as const };
    assert.equal(isCompactionDue(daily), true);
    assert.equal(
      isCompactionDue({ ...daily, lastStartedAt: at('2026-06-01T02:10:00Z') }),
      false,
      'done today',
    );
    assert.equal(isCompactionDue({ ...daily, lastStartedAt: at('2026-05-31T02:10:00Z') }), true, 'yesterday');
    assert.equal(isCompactionDue({ ...daily, owedSince: null }), false);
    // A window wrapping midnight is one occurrence: 23:30 and the next 00:30 do not both compact.
    const wrapped = { ...daily, window: window(23 * 60, 60), lastStartedAt: at('2026-06-01T23:30:00Z') };
    assert.equal(isCompactionDue({ ...wrapped, now: at('2026-06-02T00:30:00Z') }), false);
    assert.equal(isCompactionDue({ ...wrapped, now: at('2026-06-02T23:05:00Z') }), true);
  });
});
