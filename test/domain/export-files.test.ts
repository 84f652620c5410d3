import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClientResponse } from '../../src/domain/client-response.js';
import { EXPORT_FILES, neutraliseCell, recordsOf } from '../../src/domain/export-files.js';
import { exportedReview } from '../../src/domain/exported-review.js';
import { IDENTIFIER_KINDS } from '../../src/domain/identifiers.js';
import type { Review } from '../../src/domain/review.js';

const at = Date.parse('2026-03-01T10:00:00.000Z');
const source: Review = {
  id: 'r1',
  environment: 'production',
  clientId: 'c',
  rating: 5,
  title: null,
  text: 'Great',
  author: { name: 'Ann', emailAddress: 'ann@example.com' },
  submittedAt: at,
  createdAt: at,
};
const answer: ClientResponse = {
  id: 'c1',
  environment: 'production',
  reviewId: 'r1',
  clientId: 'c',
  clientName: 'Acme-EN_GB',
  applicationId: 'app',
  authorId: 'author',
  department: 'Care',
  response: 'Thanks',
  responseHash: 'hash',
  responseBy: null,
  responseSource: 'Acme Support',
  createdAt: at,
  updatedAt: at,
};
const review = exportedReview(source, [answer]);

describe('export files', () => {
  it('gives every record every key of its file, null where there is no value', () => {
    for (const file of Object.keys(EXPORT_FILES) as (keyof typeof EXPORT_FILES)[]) {
      for (const record of recordsOf(file, review))
        assert.deepEqual(Object.keys(record), [...EXPORT_FILES[file]]);
    }
    const profile = recordsOf('profile', review)[0] ?? {};
    assert.deepEqual(
      Object.entries(profile).filter(([, v]) => v !== null),
      [
        ['reviewId', 'r1'],
        ['name', 'Ann'],
        ['emailAddress', 'ann@example.com'],
      ],
    );
    assert.equal(recordsOf('responses', review)[0]?.reviewId, 'r1');
  });

  it('puts every value the export holds of a review in one of the files', () => {
    // A field added to exportedReview must reach the archive's files too, not the JSON document only.
    const full = exportedReview(
      { ...source, author: Object.fromEntries(['name', ...IDENTIFIER_KINDS].map((k) => [k, `${k}!`])) },
      [answer],
    );
    const { author, clientResponses, ...own } = full;
    const covered = (file: keyof typeof EXPORT_FILES, keys: string[]) =>
      assert.deepEqual(
        keys.filter((k) => !(EXPORT_FILES[file] as readonly string[]).includes(k)),
        [],
        file,
      );
    covered('reviews', Object.keys(own));
    covered('profile', Object.keys(author));
    covered('responses', Object.keys(clientResponses[0] ?? {}));
  });

  it('neutralises cells a spreadsheet would run as formulas (OWASP CSV injection)', () => {
    for (const risky of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])
      assert.equal(neutraliseCell(risky), `'${risky}`);
    for (const safe of ['', 'a=b', ' =x', 'Zoë']) assert.equal(neutraliseCell(safe), safe);
  });
});
