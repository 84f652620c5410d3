import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { privacyDueAt } from '../../src/domain/privacy-due-at.js';

const due = (iso: string) => new Date(privacyDueAt(Date.parse(iso))).toISOString();

describe('privacyDueAt (GDPR Art. 12(3): one calendar month)', () => {
  it('keeps the day of the month and the time of day', () => {
    assert.equal(due('2026-01-15T09:30:00.123Z'), '2026-02-15T09:30:00.123Z');
    assert.equal(due('2026-04-30T00:00:00.000Z'), '2026-05-30T00:00:00.000Z');
  });

  it('clamps to the last day of a shorter month', () => {
    assert.equal(due('2026-01-31T12:00:00.000Z'), '2026-02-28T12:00:00.000Z');
    assert.equal(due('2028-01-31T12:00:00.000Z'), '2028-02-29T12:00:00.000Z');
    assert.equal(due('2026-03-31T23:59:59.999Z'), '2026-04-30T23:59:59.999Z');
    assert.equal(due('2026-08-31T08:00:00.000Z'), '2026-09-30T08:00:00.000Z');
  });

  it('rolls over into the next year', () => {
    assert.equal(due('2026-12-31T10:00:00.000Z'), '2027-01-31T10:00:00.000Z');
    assert.equal(due('2026-12-01T00:00:00.000Z'), '2027-01-01T00:00:00.000Z');
  });
});
