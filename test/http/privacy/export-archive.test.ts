import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { EXPORT_FILES } from '../../../src/domain/export-files.js';
import { exportArchive } from '../../../src/http/privacy/export-archive.js';
import { distinctIgnoringCase, validEverywhere } from '../../helpers/folder-names.js';
import {
  drainPrivacyQueue,
  importReviewsBy,
  type PrivacyClient,
  type PrivacyTenant,
  privacyClient,
  respondTo,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../../helpers/test-runtime.js';
import { unzip } from '../../helpers/unzip.js';

/** The first line of a CSV file, after its byte order mark, as its column names. */
const headerOf = (csv: string) => (csv.replace(/^\uFEFF/, '').split('\r\n')[0] ?? '').split(',');

/**
 * CSV text read as a spreadsheet reads it with `separator` as its list separator, one list of
 * cells per record: a double quote opens a quoted part only at the start of a cell (elsewhere, and
 * after the closing one, it is text), and CR, LF or CRLF outside quotes ends a record.
 */
function spreadsheetRead(text: string, separator: ',' | ';'): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  let atStart = true;
  const endCell = () => {
    record.push(cell);
    cell = '';
    atStart = true;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (atStart && c === '"') {
      quoted = true;
      atStart = false;
    } else if (c === separator) {
      endCell();
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endCell();
      records.push(record);
      record = [];
    } else {
      cell += c;
      atStart = false;
    }
  }
  if (!atStart || record.length > 0) {
    endCell();
    records.push(record);
  }
  return records;
}

/** A cell a spreadsheet would run: a formula character behind what it skips, and no `'` first. */
const runsAsFormula = (cell: string) =>
  !cell.startsWith("'") && /^[\p{White_Space}\p{Cc}\p{Cf}"]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/u.test(cell);

/** Every cell of `csv` (byte order mark left out) a spreadsheet reading it with `,` or `;` would run. */
const formulaCells = (csv: string) =>
  ([',', ';'] as const).flatMap((separator) =>
    spreadsheetRead(csv.replace(/^\uFEFF/, ''), separator)
      .flat()
      .filter(runsAsFormula)
      .map((cell) => `${separator}: ${JSON.stringify(cell)}`),
  );

/** A cell's value, its neutralising undone as docs/privacy.md (Exports) says. */
const unmarked = (cell: string) => cell.replace(/(^|[,;\r\n])'/g, '$1');

/** A client response as the export keeps it, with `fields` over an empty one. */
const keptResponse = (fields: Record<string, unknown>) => ({
  id: 'c',
  department: null,
  response: '',
  responseBy: null,
  responseSource: null,
  created: '',
  updated: '',
  ...fields,
});

/** A review as the export keeps it, with `fields` over an empty one. */
const kept = (fields: Record<string, unknown>) =>
  JSON.stringify({
    id: 'a',
    rating: 1,
    title: null,
    text: null,
    submittedAt: '',
    author: {},
    clientResponses: [],
    ...fields,
  });

/** The archive of an export of these sections (client name, then each review's kept JSON), whole. */
async function archiveOf(
  sections: { clientName: string; reviews: () => AsyncIterable<string> }[],
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of exportArchive({ requestId: 'r', generatedAt: 0, expiresAt: 0, sections }))
    chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sectionOf = (clientName: string, ...reviews: string[]) => ({
  clientName,
  reviews: async function* () {
    yield* reviews;
  },
});

describe(`access export as a ZIP archive (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let tenant: PrivacyTenant;
  let c: PrivacyClient;
  let requestId: string;
  const person = {
    name: 'Zoë Ångström',
    emailAddress: 'zoe.export@example.com',
    authorId: '=HYPERLINK("x")',
  };

  before(async () => {
    t = await createTestApp();
    tenant = await seedPrivacyTenant(t.runtime.deps);
    c = privacyClient(t.app, tenant);
    const en = await importReviewsBy(t.runtime.deps, person, { clientName: 'Acme-EN_GB', count: 3 });
    await importReviewsBy(t.runtime.deps, person, { clientName: 'Acme-DE_DE', count: 2 });
    await respondTo(t.runtime.deps, tenant.applicationId, en.slice(0, 1));
    const filed = await c.post('access', { emailAddress: person.emailAddress });
    assert.equal(filed.statusCode, 201, filed.body);
    requestId = filed.json().id;
    await drainPrivacyQueue(t.runtime.deps);
  });
  after(() => t.close());

  const download = (query: Record<string, string>, headers: Record<string, string> = {}) =>
    c.get(`/accessRequests/${requestId}/export`, query, headers);

  it('keeps JSON the default, and serves the archive for ?format=zip or Accept: application/zip', async () => {
    const json = await download({});
    assert.equal(json.statusCode, 200);
    assert.match(String(json.headers['content-type']), /^application\/json/);
    assert.equal(json.json().clients.length, 2);
    for (const res of [
      await download({ format: 'zip' }),
      await download({}, { accept: 'application/zip' }),
    ]) {
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/zip');
      assert.match(String(res.headers['content-disposition']), /access-export-.*\.zip"/);
    }
  });

  it('weighs Accept by its q-values, and says the answer varies with it', async () => {
    const cases: [string, string][] = [
      ['application/zip;q=0, */*', 'application/json'],
      ['application/json;q=0.5, application/zip', 'application/zip'],
      ['*/*', 'application/json'],
      ['text/html', 'application/json'],
    ];
    for (const [accept, expected] of cases) {
      const res = await download({}, { accept });
      assert.equal(res.statusCode, 200, accept);
      assert.equal(String(res.headers['content-type']).split(';')[0], expected, accept);
      assert.match(String(res.headers.vary), /accept/i, accept);
    }
    // The query parameter is the caller's explicit choice: it wins over Accept.
    const explicit = await download({ format: 'json' }, { accept: 'application/zip' });
    assert.match(String(explicit.headers['content-type']), /^application\/json/);
  });

  it('answers HEAD with the fields of the download and no body', async () => {
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/privacy/v1/accessRequests/${requestId}/export`,
      query: { passkey: tenant.privacyPasskey, format: 'zip' },
      headers: { authorization: `Bearer ${tenant.token}`, host: 'localhost' },
    });
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers['content-type'], 'application/zip');
    assert.match(String(head.headers['content-disposition']), /\.zip"/);
    assert.equal(head.rawPayload.length, 0);
    assert.equal(head.headers['content-length'], undefined, 'a streamed download has no length');
  });

  it('holds a folder per client with JSON and CSV files whose columns are the JSON keys', async () => {
    const files = await unzip((await download({ format: 'zip' })).rawPayload);
    const expected = ['Acme-DE_DE', 'Acme-EN_GB'].flatMap((folder) =>
      Object.keys(EXPORT_FILES).flatMap((file) => [`${folder}/${file}.json`, `${folder}/${file}.csv`]),
    );
    assert.deepEqual([...files.keys()].sort(), expected.sort());
    for (const [path, text] of files) {
      if (!path.endsWith('.json')) continue;
      const records = JSON.parse(text) as Record<string, unknown>[];
      const csv = files.get(path.replace(/\.json$/, '.csv')) ?? '';
      // A spreadsheet reads the file as UTF-8 only when it starts with the byte order mark.
      assert.ok(csv.startsWith('\uFEFF'), path);
      const lines = csv.split('\r\n').filter(Boolean);
      assert.equal(lines.length, records.length + 1, path);
      for (const record of records) assert.deepEqual(Object.keys(record), headerOf(csv), path);
    }
    const reviews = JSON.parse(files.get('Acme-EN_GB/reviews.json') ?? '[]') as { id: string }[];
    assert.equal(reviews.length, 3);
    const responses = JSON.parse(files.get('Acme-EN_GB/responses.json') ?? '[]') as { reviewId: string }[];
    assert.equal(responses.length, 1);
  });

  it('neutralises formula-leading cells in CSV only, and keeps non-ASCII text intact', async () => {
    const files = await unzip((await download({ format: 'zip' })).rawPayload);
    const profile = JSON.parse(files.get('Acme-DE_DE/profile.json') ?? '[]') as Record<string, string>[];
    assert.equal(profile[0]?.authorId, '=HYPERLINK("x")');
    assert.equal(profile[0]?.name, 'Zoë Ångström');
    const csv = files.get('Acme-DE_DE/profile.csv') ?? '';
    assert.ok(csv.includes(`"'=HYPERLINK(""x"")"`), csv);
    assert.ok(!/(^|,)=HYPERLINK/m.test(csv));
    assert.ok(csv.includes('Zoë Ångström'), csv);
  });

  it('quotes a value with a line break, so each record stays one CSV record (RFC 4180)', async () => {
    const review = kept({ title: 'Line 1\nLine 2', text: 'CR\rhere' });
    const files = await unzip(await archiveOf([sectionOf('Acme-EN_GB', review)]));
    const csv = files.get('Acme-EN_GB/reviews.csv') ?? '';
    assert.equal(csv, '\uFEFFid,rating,title,text,submittedAt\r\na,1,"Line 1\nLine 2","CR\rhere",\r\n');
  });

  it('neutralises a formula after a `;`, which a spreadsheet reading with `;` splits off', async () => {
    const response = 'Thanks;=HYPERLINK(A1&B1);see you';
    const review = kept({ clientResponses: [keptResponse({ response })] });
    const files = await unzip(await archiveOf([sectionOf('Acme-EN_GB', review)]));
    const csv = files.get('Acme-EN_GB/responses.csv') ?? '';
    assert.deepEqual(formulaCells(csv), [], csv);
    const [, record] = spreadsheetRead(csv.replace(/^\uFEFF/, ''), ',');
    assert.equal(record?.[3], "Thanks;'=HYPERLINK(A1&B1);see you");
    assert.ok(csv.includes(`"Thanks;'=HYPERLINK(A1&B1);see you"`), 'quoted, as OWASP says');
    assert.equal(JSON.parse(files.get('Acme-EN_GB/responses.json') ?? '[]')[0]?.response, response);
  });

  it('neutralises a formula behind white space, invisible characters or controls, or full-width', async () => {
    const bypasses = [
      ' =1+1',
      '\u00A0=1+1',
      '\n=1+1',
      '\v=1+1',
      '\uFEFF=1+1',
      '\u200B=1+1',
      '\u0000=1+1',
      '\uFF1D1+1',
      '\uFF0B1',
      '\uFF0D1',
      '\uFF20SUM(A1)',
    ];
    const reviews = bypasses.map((title, i) => kept({ id: `r${i}`, title }));
    const files = await unzip(await archiveOf([sectionOf('Acme-EN_GB', ...reviews)]));
    const csv = files.get('Acme-EN_GB/reviews.csv') ?? '';
    assert.deepEqual(formulaCells(csv), [], csv);
    const titles = spreadsheetRead(csv.replace(/^\uFEFF/, ''), ',')
      .slice(1)
      .map((record) => record[2] ?? '');
    for (const title of titles) assert.ok(title.startsWith("'"), JSON.stringify(title));
    assert.deepEqual(titles.map(unmarked), bypasses);
  });

  it('writes no cell a spreadsheet would run, whatever the text, and loses none of it', async () => {
    const tricky = fc.constantFrom(...'=+-@\t\r\n;,"\' \u00A0\v\uFEFF\u200B\u0000\uFF1D\uFF0B\uFF0D\uFF20a');
    const text = fc.oneof(fc.string({ unit: tricky }), fc.string({ unit: 'binary' }));
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(text, text, text, text, text),
        async ([id, title, body, department, response]) => {
          const review = kept({
            id,
            title,
            text: body,
            clientResponses: [keptResponse({ department, response })],
          });
          const files = await unzip(await archiveOf([sectionOf('Acme-EN_GB', review)]));
          const reviews = files.get('Acme-EN_GB/reviews.csv') ?? '';
          const responses = files.get('Acme-EN_GB/responses.csv') ?? '';
          assert.deepEqual(formulaCells(reviews), [], reviews);
          assert.deepEqual(formulaCells(responses), [], responses);
          const read = (csv: string) =>
            spreadsheetRead(csv.replace(/^\uFEFF/, ''), ',').map((r) => r.map(unmarked));
          assert.equal(read(reviews).length, 2, reviews);
          assert.deepEqual(read(reviews)[1], [id, '1', title, body, '']);
          assert.deepEqual(read(responses)[1], [id, 'c', department, response, '', '', '', '']);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('gives clients whose names become the same folder a folder each', async () => {
    const names = ['Acme EN', 'Acme/EN', '..'];
    const files = await unzip(await archiveOf(names.map((name) => sectionOf(name, kept({ id: name })))));
    const folders = new Set([...files.keys()].map((path) => path.split('/')[0]));
    assert.equal(folders.size, 3, [...folders].join());
    for (const folder of folders) assert.ok(folder && !folder.startsWith('.'), folder);
    const ids = [...folders].map(
      (f) => (JSON.parse(files.get(`${f}/reviews.json`) ?? '[]') as { id: string }[])[0]?.id,
    );
    assert.deepEqual(ids.sort(), ['..', 'Acme EN', 'Acme/EN']);
  });

  it('gives folders that are distinct ignoring case and valid on Windows, macOS and Linux', async () => {
    const names = ['Case-EN_GB', 'case-en_gb', 'CON', 'aux.txt'];
    const files = await unzip(await archiveOf(names.map((name) => sectionOf(name, kept({ id: name })))));
    const folders = [...new Set([...files.keys()].map((path) => path.split('/')[0] ?? ''))];
    assert.equal(folders.length, 4, folders.join());
    assert.ok(distinctIgnoringCase(folders), folders.join());
    for (const folder of folders) assert.ok(validEverywhere(folder), folder);
    const idIn = (f: string) =>
      (JSON.parse(files.get(`${f}/reviews.json`) ?? '[]') as { id: string }[])[0]?.id;
    assert.deepEqual(folders.map(idIn).sort(), [...names].sort(), 'each client has its own folder');
    assert.ok(folders.includes('Case-EN_GB'), 'a valid name is kept');
  });

  it('fails the archive, not the process, when a page cannot be read mid-download', async () => {
    const failing = {
      clientName: 'Acme-EN_GB',
      async *reviews() {
        yield kept({});
        throw new Error('the database went away');
      },
    };
    await assert.rejects(archiveOf([failing]), /the database went away/);
  });

  it('is gone once a forget request has erased the person', async () => {
    const forget = await c.post('forget', { emailAddress: person.emailAddress });
    assert.equal(forget.statusCode, 201, forget.body);
    await drainPrivacyQueue(t.runtime.deps);
    assert.equal((await download({ format: 'zip' })).statusCode, 410);
    assert.equal((await download({})).statusCode, 410);
  });
});
