import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import { drainPrivacyQueue } from '../../helpers/privacy-fixtures.js';
import { rpaAgainst } from '../../helpers/rpa-cli.js';
import {
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  uniqueSchema,
} from '../../helpers/test-runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-import-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'import.db')}`;

const rpa = rpaAgainst({ databaseUrl, schema });

function ndjson(name: string, rows: readonly unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n'));
  return file;
}

describe(`rpa reviews import on ${TEST_DIALECT}`, () => {
  before(async () => {
    const demo = await rpa('demo', '--json');
    assert.equal(demo.code, 0, demo.stderr);
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('rejects unknown fields with the line and the field, and exits 1', async () => {
    const file = ndjson('typos.ndjson', [
      { id: 'typo-1', clientName: 'Acme-EN_GB', rating: 4, author: { emailAddress: 'ok@example.com' } },
      { id: 'typo-2', clientName: 'Acme-EN_GB', authorID: 'hidden-id-1' },
      { id: 'typo-3', clientName: 'Acme-EN_GB', author: { email: 'hidden@example.com' } },
      { id: 'typo-4', clientName: 'Acme-EN_GB', author: { name: 'X', Instagram: 'x' } },
      { id: 'typo-5', clientName: 'Acme-EN_GB', 'hidden@example.com': 1 },
    ]);
    const r = await rpa('reviews', 'import', file, '--json');
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.imported, 1);
    assert.equal(out.rejected, 4);
    assert.deepEqual(out.errors, [
      { line: 2, field: 'authorID', message: 'unknown field "authorID" (did you mean "author.authorId"?)' },
      {
        line: 3,
        field: 'author.email',
        message: 'unknown field "author.email" (did you mean "author.emailAddress"?)',
      },
      {
        line: 4,
        field: 'author.Instagram',
        message: 'unknown field "author.Instagram" (did you mean "author.instagramUsername"?)',
      },
      // A key that looks like data is not repeated.
      { line: 5, message: 'unknown field (its name is not shown)' },
    ]);
    for (const value of ['hidden-id-1', 'hidden@example.com']) assert.ok(!r.stdout.includes(value));
  });

  it('prints each rejected line readably for people', async () => {
    const file = ndjson('human.ndjson', [
      { id: 'hum-1', clientName: 'Acme-EN_GB', rating: 5 },
      '{not json',
      { id: 'hum-3', clientName: 'Nope' },
      { id: 'hum-4', clientName: 'Acme-EN_GB', rating: 9 },
    ]);
    const r = await rpa('reviews', 'import', file);
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stdout, /\[object Object\]/);
    assert.match(r.stdout, /^imported\s+1$/m);
    assert.match(r.stdout, /^rejected\s+3$/m);
    assert.match(r.stdout, /^line 2: rejected: not valid JSON$/m);
    assert.match(r.stdout, /^line 3: rejected: no client named "Nope" in production$/m);
    assert.match(r.stdout, /^line 4: rejected: rating must be a whole number from 1 to 5$/m);
    // Only lines that all landed exit 0.
    const clean = await rpa(
      'reviews',
      'import',
      ndjson('clean.ndjson', [{ id: 'hum-9', clientName: 'Acme-EN_GB' }]),
    );
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
  });

  it('validates without writing on --dry-run, duplicates in the file and in the database included', async () => {
    const file = ndjson('dry.ndjson', [
      { id: 'dry-1', clientName: 'Acme-EN_GB', author: { authorId: 'dry-person' } },
      { id: 'dry-1', clientName: 'Acme-EN_GB' },
      { id: 'hum-1', clientName: 'Acme-EN_GB' },
      { id: 'dry-2', clientName: 'Acme-DE_DE', text: 'fine' },
    ]);
    const dry = await rpa('reviews', 'import', file, '--dry-run', '--json');
    assert.equal(dry.code, 1, dry.stderr);
    const out = JSON.parse(dry.stdout);
    assert.equal(out.dryRun, true);
    assert.equal(out.imported, 2);
    assert.deepEqual(
      out.errors.map((e: { line: number; message: string }) => [e.line, e.message]),
      [
        [2, 'a review with this id already exists'],
        [3, 'a review with this id already exists'],
      ],
    );
    const human = await rpa('reviews', 'import', file, '--dry-run');
    assert.match(human.stdout, /^dry run: nothing was written$/m);
    assert.match(human.stdout, /^would import\s+2$/m);
    // Nothing was written: the real import takes dry-1 and dry-2.
    const real = JSON.parse((await rpa('reviews', 'import', file, '--json')).stdout);
    assert.equal(real.imported, 2);
  });

  it('skips the lines of a forgotten person and says so', async () => {
    const rt = await createTestRuntime({}, { databaseUrl, keepSchema: true, ...(schema ? { schema } : {}) });
    try {
      const [app] = await rt.deps.store.db
        .selectFrom('applications')
        .select('id')
        .where('environment', '=', 'production')
        .execute();
      assert.ok(app);
      await createPrivacyRequest(rt.deps, {
        type: 'forget',
        environment: 'production',
        applicationId: app.id,
        clientNames: ['Acme-EN_GB'],
        identifiers: { authorId: 'bob-2' },
      });
      await drainPrivacyQueue(rt.deps);
    } finally {
      await rt.close();
    }
    const file = ndjson('bob.ndjson', [
      {
        id: 'bob-again',
        clientName: 'Acme-EN_GB',
        author: { name: 'Bob Example', emailAddress: 'bob@example.com' },
      },
      {
        id: 'bob-de',
        clientName: 'Acme-DE_DE',
        author: { name: 'Bob Example', emailAddress: 'bob@example.com' },
      },
    ]);
    const r = await rpa('reviews', 'import', file);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^imported\s+1$/m);
    assert.match(r.stdout, /^skipped forgotten\s+1$/m);
    assert.match(r.stdout, /^line 1: skipped: the author was forgotten in Acme-EN_GB$/m);
    const demo = JSON.parse((await rpa('demo', '--json')).stdout);
    assert.equal(demo.production.skippedForgotten, 1);

    // An operator lifts it, with a reason; the command names no identifier in its output.
    const bad = await rpa('privacy', 'unsuppress', '--identifier', 'mail=bob@example.com', '--reason', 'x');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^rpa: --identifier expects TYPE=VALUE with TYPE one of authorId, /);
    const twice = await rpa(
      'privacy',
      'unsuppress',
      '--identifier',
      'authorId=a',
      '--identifier',
      'authorId=b',
      '--reason',
      'x',
    );
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /^rpa: --identifier authorId is given twice\n$/);
    const lift = await rpa(
      'privacy',
      'unsuppress',
      '--identifier',
      'emailAddress=BOB@example.com',
      '--client',
      'Acme-EN_GB',
      '--reason',
      'returned as a customer',
      '--by',
      'ops',
    );
    assert.equal(lift.code, 0, lift.stderr);
    assert.match(lift.stdout, /^lifted in Acme-EN_GB: 3 identifier\(s\), record [0-9a-f-]{36}$/m);
    assert.doesNotMatch(lift.stdout, /bob/i);
    const again = await rpa('privacy', 'unsuppress', '--identifier', 'authorId=bob-2', '--reason', 'twice');
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^rpa: no forgotten person in production matches/);
    const back = await rpa('reviews', 'import', file, '--json');
    assert.equal(JSON.parse(back.stdout).imported, 1, back.stdout);
    assert.equal(JSON.parse(back.stdout).skippedForgotten, 0, back.stdout);
  });

  it('explains a file it cannot read in one line', async () => {
    mkdirSync(join(dir, 'a-directory'));
    const unreadable = ndjson('unreadable.ndjson', ['{}']);
    chmodSync(unreadable, 0o000);
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.ndjson'), /^rpa: cannot read .*missing\.ndjson: no such file\n$/],
      [join(dir, 'a-directory'), /^rpa: cannot read .*a-directory: it is a directory\n$/],
    ];
    // root reads any file regardless of its mode.
    if (process.getuid?.() !== 0) cases.push([unreadable, /^rpa: cannot read .*: permission denied\n$/]);
    for (const [file, expected] of cases) {
      const r = await rpa('reviews', 'import', file);
      assert.equal(r.code, 1, file);
      assert.match(r.stderr, expected);
      assert.doesNotMatch(r.stderr, /ENOENT|EISDIR|EACCES/);
    }
  });
});
