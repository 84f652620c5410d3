import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
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
    for (const safe of ['', 'a=b', 'Zoë']) assert.equal(neutraliseCell(safe), safe);
  });

  it('finds a formula behind white space, invisible characters, or a separator, and full-width', () => {
    const cases: [string, string, string][] = [
      ['a space', ' =x', "' =x"],
      ['a no-break space', '\u00A0=x', "'\u00A0=x"],
      ['a line feed', '\n=x', "'\n'=x"],
      ['a vertical tab', '\v=x', "'\v=x"],
      ['a byte order mark', '\uFEFF=x', "'\uFEFF=x"],
      ['a zero-width space', '\u200B=x', "'\u200B=x"],
      ['a zero-width joiner', '\u200D=x', "'\u200D=x"],
      ['a word joiner', '\u2060=x', "'\u2060=x"],
      ['a NUL', '\u0000=x', "'\u0000=x"],
      ['another C0 control', '\u001F@x', "'\u001F@x"],
      ['a double quote', '"=x', `'"=x`],
      ['a full-width =', '\uFF1D1+1', "'\uFF1D1+1"],
      ['a full-width +', '\uFF0B1', "'\uFF0B1"],
      ['a full-width -', '\uFF0D1', "'\uFF0D1"],
      ['a full-width @', '\uFF20SUM(A1)', "'\uFF20SUM(A1)"],
      ['a CRLF', '\r\nx', "'\r\nx"],
      ['a semicolon', 'Thanks;=HYPERLINK(A1&B1);see you', "Thanks;'=HYPERLINK(A1&B1);see you"],
      ['a comma', 'a, -1', "a,' -1"],
      ['a line break inside', 'a\r\n+1\n@2', "a\r\n'+1\n'@2"],
      ['a lone CR inside', 'a\r=1', "a\r'=1"],
      ['a separator before a line break', 'a;\n=1', "a;'\n'=1"],
      ["a ' of its own", "'quoted;'x", "''quoted;''x"],
    ];
    for (const [why, value, written] of cases) assert.equal(neutraliseCell(value), written, why);
    for (const safe of [
      'a=b',
      'Great - really',
      "it's",
      'x;y, z',
      '2026-03-01T10:00:00.000Z',
      'a\nb',
      ' ',
      ';',
    ])
      assert.equal(neutraliseCell(safe), safe, safe);
  });

  it("is undone by removing the ' at the start and after each separator", () => {
    const unmark = (cell: string) => cell.replace(/(^|[,;\r\n])'/g, '$1');
    const tricky = fc.constantFrom(...'=+-@\t\r\n;,"\' \u00A0\v\uFEFF\u200B\u0000\uFF1D\uFF0B\uFF0D\uFF20a');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: tricky }), fc.string({ unit: 'binary' })), (value) => {
        assert.equal(unmark(neutraliseCell(value)), value);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes time linear in the value, whatever separators and white space it holds', () => {
    // Each place a cell may start looks past the white space after it; done naively, a value of
    // line feeds would cost its length squared.
    const value = `${'\n'.repeat(200_000)}=x`;
    const started = performance.now();
    assert.ok(neutraliseCell(value).endsWith("'=x"));
    assert.ok(performance.now() - started < 1000);
  });
});
