import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeListCursor, encodeListCursor } from '../../src/domain/list-cursor.js';
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

describe('list cursors', () => {
  it('round-trip a position', () => {
    const position = { submittedAt: 1_790_000_000_123, id: '9df02479-0182-4a34-bbec-ecf947c3d3df' };
    const cursor = encodeListCursor({ position, identifier: null });
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeListCursor(cursor), { position, identifier: null });
  });

  it('round-trip an identifier filter, with or without a position', () => {
    const identifier = { kind: 'emailAddress' as const, hash: 'q1W2e3R4t5Y6u7I8o9P0a_S-d' };
    for (const position of [null, { submittedAt: 1, id: 'a' }]) {
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
