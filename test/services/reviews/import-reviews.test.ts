import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../../src/http/build-server.js';
import { liftSuppression } from '../../../src/services/privacy/lift-suppression.js';
import { importReviews } from '../../../src/services/reviews/import-reviews.js';
import { seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { findCompactionOwed } from '../../../src/store/repositories/privacy-compactions.js';
import {
  drainPrivacyQueue,
  exportTablesText,
  importReviewsBy,
  type PrivacyClient,
  type PrivacyTenant,
  privacyClient,
  respondTo,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

/** One person, several identifiers: reviews carry them in different combinations. */
const GRETA = {
  name: 'Greta Manyfaces',
  authorId: 'greta-41',
  emailAddress: 'greta.manyfaces@example.net',
  phoneNumber: '+45 32 12 34 56',
  instagramUsername: 'greta.faces',
  text: 'Greta wrote this: parcel arrived crushed',
};
const HUGO = { name: 'Hugo Control', authorId: 'hugo-7', emailAddress: 'hugo.control@example.net' };

async function* iterate(lines: readonly string[]) {
  yield* lines;
}

function line(id: string, clientName: string, author: Record<string, string>, text = GRETA.text) {
  return JSON.stringify({ id, clientName, rating: 2, title: 'Crushed', text, author });
}

const dir = mkdtempSync(join(tmpdir(), 'rpa-forgotten-'));
const dbFile = join(dir, 'forgotten.db');

describe(`a forgotten person stays forgotten on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let app: FastifyInstance;
  let tenant: PrivacyTenant;
  let c: PrivacyClient;

  before(async () => {
    // A database file on SQLite, so the last test can read the bytes left on disk.
    rt = await createTestRuntime(
      { WORKER_BATCH_SIZE: '3' },
      TEST_DIALECT === 'sqlite' ? { databaseUrl: `sqlite:${dbFile}` } : {},
    );
    app = await buildServer(rt.http);
    await app.ready();
    tenant = await seedPrivacyTenant(rt.deps);
    c = privacyClient(app, tenant);
  });
  after(async () => {
    await app.close();
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Greta's reviews: one carries authorId + e-mail; the others only one identifier each. */
  async function importGreta(prefix: string) {
    const lines = [
      line(`${prefix}-both`, 'Acme-EN_GB', {
        name: GRETA.name,
        authorId: GRETA.authorId,
        emailAddress: GRETA.emailAddress,
      }),
      line(`${prefix}-mail`, 'Acme-EN_GB', { name: GRETA.name, emailAddress: 'Greta.Manyfaces@Example.net' }),
      line(`${prefix}-phone`, 'Acme-EN_GB', {
        name: GRETA.name,
        emailAddress: GRETA.emailAddress,
        phoneNumber: GRETA.phoneNumber,
      }),
      line(`${prefix}-id`, 'Acme-DE_DE', { name: GRETA.name, authorId: GRETA.authorId }),
    ];
    const r = await importReviews(rt.deps, { lines: iterate(lines), environment: 'production' });
    assert.equal(r.imported, lines.length, JSON.stringify(r));
    return [`${prefix}-both`, `${prefix}-mail`, `${prefix}-phone`, `${prefix}-id`];
  }

  async function reviewIdsLeft(ids: readonly string[]) {
    const rows = await rt.deps.store.db.selectFrom('reviews').select('id').where('id', 'in', ids).execute();
    return rows.map((r) => r.id).sort();
  }

  it('a forget request by authorId removes what an access export by e-mail held of her, and its masked e-mail', async () => {
    const ids = await importGreta('g1');
    await respondTo(rt.deps, tenant.applicationId, ids.slice(0, 2));
    const access = await c.post('access', { emailAddress: GRETA.emailAddress });
    assert.equal(access.statusCode, 201, access.body);
    await drainPrivacyQueue(rt.deps);
    const download = await c.get(`/accessRequests/${access.json().id}/export`);
    assert.equal(download.statusCode, 200);
    assert.ok(download.body.includes(GRETA.text), 'the export holds her review');
    assert.ok((await exportTablesText(rt.deps)).includes(GRETA.name), 'the export tables hold her');

    const forget = await c.post('forget', { authorId: GRETA.authorId });
    assert.equal(forget.statusCode, 201, forget.body);
    await drainPrivacyQueue(rt.deps);

    // Her reviews are gone whichever of her identifiers they were filed under: the e-mail-only and
    // phone reviews are linked to the authorId through the review that carries both.
    assert.deepEqual(await reviewIdsLeft(ids), []);
    // The Acme-EN_GB section held her reviews and is gone. The Acme-DE_DE section found nothing
    // under the e-mail there (her review in DE carries only the authorId) and stays, empty.
    const after = await c.get(`/accessRequests/${access.json().id}/export`);
    assert.equal(after.statusCode, 200);
    assert.deepEqual(
      after.json().clients.map((s: { clientName: string; reviews: unknown[] }) => [s.clientName, s.reviews]),
      [['Acme-DE_DE', []]],
    );
    for (const value of [GRETA.name, GRETA.text, GRETA.emailAddress, GRETA.authorId]) {
      assert.ok(!after.body.includes(value), `the export still holds ${value}`);
    }
    const accessRecord = (await c.get(`/accessRequests/${access.json().id}`)).json();
    assert.deepEqual(accessRecord.identifiers, [{ type: 'emailAddress', value: null }]);
    const record = (await c.get(`/forgetRequests/${forget.json().id}`)).json();
    assert.equal(record.status, 'COMPLETED');
    assert.deepEqual(record.receipt.clients, [
      { clientName: 'Acme-DE_DE', reviews: 1, clientResponses: 0, profileFields: 2, accessExports: 0 },
      { clientName: 'Acme-EN_GB', reviews: 3, clientResponses: 2, profileFields: 8, accessExports: 1 },
    ]);
    const exported = await exportTablesText(rt.deps);
    for (const value of [GRETA.name, GRETA.text]) assert.ok(!exported.includes(value), value);
    // The deleted rows are owed a rewrite of their tables (PRIVACY_COMPACT, rpa privacy compact).
    assert.notEqual(await findCompactionOwed(rt.deps.store.db), null);
  });

  it("removes an export that copied her review under someone else's identifier, and only in that client", async () => {
    // R1 {e-mail X, phone P} and R2 {phone P, twitter Y}; an access request for X exports both.
    const lines = [
      line('ex-r1', 'Acme-EN_GB', {
        name: 'Xena Copy',
        emailAddress: 'xena.copy@example.net',
        phoneNumber: '+45 11 22 33 44',
      }),
      line('ex-r2', 'Acme-EN_GB', {
        name: 'Yvonne Secret',
        phoneNumber: '+45 11 22 33 44',
        twitterUsername: 'yvonne_y',
      }),
      // In Acme-DE_DE the Twitter name belongs to a review of its own, by nobody linked to her there.
      line('ex-de', 'Acme-DE_DE', { name: 'Tee Elsewhere', twitterUsername: 'yvonne_y' }),
    ];
    assert.equal(
      (await importReviews(rt.deps, { lines: iterate(lines), environment: 'production' })).imported,
      3,
    );
    const byX = await c.post('access', {
      emailAddress: 'xena.copy@example.net',
      clientNames: ['Acme-EN_GB'],
    });
    const byY = await c.post('access', { twitterUsername: 'yvonne_y' });
    assert.equal(byX.statusCode, 201, byX.body);
    assert.equal(byY.statusCode, 409, 'Y shares the phone with X: the scopes overlap');
    await drainPrivacyQueue(rt.deps);
    const byYNow = await c.post('access', { twitterUsername: 'yvonne_y' });
    assert.equal(byYNow.statusCode, 201, byYNow.body);
    await drainPrivacyQueue(rt.deps);
    assert.ok((await c.get(`/accessRequests/${byX.json().id}/export`)).body.includes('Yvonne Secret'));

    const forget = await c.post('forget', { twitterUsername: 'yvonne_y', clientNames: ['Acme-EN_GB'] });
    assert.equal(forget.statusCode, 201, forget.body);
    await drainPrivacyQueue(rt.deps);
    assert.deepEqual(await reviewIdsLeft(['ex-r1', 'ex-r2', 'ex-de']), ['ex-de']);
    // The export filed under X held R2: it goes, though X is not among the forget request's keys.
    assert.equal((await c.get(`/accessRequests/${byX.json().id}/export`)).statusCode, 410);
    // The export filed under Y keeps its Acme-DE_DE section: that review is not hers and stays.
    const yExport = await c.get(`/accessRequests/${byYNow.json().id}/export`);
    assert.equal(yExport.statusCode, 200);
    assert.deepEqual(
      yExport
        .json()
        .clients.map((s: { clientName: string; reviews: { id: string }[] }) => [
          s.clientName,
          s.reviews.map((r) => r.id),
        ]),
      [['Acme-DE_DE', ['ex-de']]],
    );
    const record = (await c.get(`/forgetRequests/${forget.json().id}`)).json();
    assert.deepEqual(record.receipt.clients, [
      { clientName: 'Acme-EN_GB', reviews: 2, clientResponses: 0, profileFields: 6, accessExports: 2 },
    ]);
  });

  it('answers 409 to a request naming an identifier linked to a pending one, exactly once under concurrency', async () => {
    const person = {
      name: 'Ida Linked',
      authorId: 'ida-3',
      emailAddress: 'ida.linked@example.net',
      phoneNumber: '+45 70 10 20 30',
      instagramUsername: 'ida.linked',
    };
    await importReviewsBy(
      rt.deps,
      { name: person.name, authorId: person.authorId, emailAddress: person.emailAddress },
      { clientName: 'Acme-EN_GB', count: 2 },
    );
    await importReviewsBy(
      rt.deps,
      { name: person.name, emailAddress: person.emailAddress, phoneNumber: person.phoneNumber },
      { clientName: 'Acme-EN_GB', count: 1 },
    );
    await importReviewsBy(
      rt.deps,
      { name: person.name, authorId: person.authorId, instagramUsername: person.instagramUsername },
      { clientName: 'Acme-EN_GB', count: 1 },
    );

    const first = await c.post('forget', { authorId: person.authorId });
    assert.equal(first.statusCode, 201, first.body);
    const byMail = await c.post('forget', { emailAddress: person.emailAddress });
    assert.equal(byMail.statusCode, 409, byMail.body);
    assert.equal(byMail.json().code, 'PENDING_REQUEST_EXISTS');
    const byPhone = await c.post('access', { phoneNumber: person.phoneNumber });
    assert.equal(
      byPhone.statusCode,
      409,
      'the phone is linked to the e-mail, which is linked to the authorId',
    );
    // Not linked in a client the request does not name: a request for Acme-DE_DE only is accepted.
    const elsewhere = await c.post('access', {
      emailAddress: person.emailAddress,
      clientNames: ['Acme-DE_DE'],
    });
    assert.equal(elsewhere.statusCode, 201, elsewhere.body);
    await drainPrivacyQueue(rt.deps);

    // Concurrently, every identifier of another person at once: exactly one request is accepted.
    const jo = {
      name: 'Jo Concurrent',
      authorId: 'jo-11',
      emailAddress: 'jo.concurrent@example.net',
      phoneNumber: '+45 70 99 88 77',
      instagramUsername: 'jo.concurrent',
      twitterUsername: 'jo_concurrent',
    };
    await importReviewsBy(rt.deps, jo, { clientName: 'Acme-EN_GB', count: 2 });
    const single: Record<string, string>[] = [
      { authorId: jo.authorId },
      { emailAddress: jo.emailAddress.toUpperCase() },
      { phoneNumber: jo.phoneNumber },
      { instagramUsername: `@${jo.instagramUsername}` },
      { twitterUsername: jo.twitterUsername },
    ];
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => c.post(i % 2 ? 'forget' : 'access', single[i % single.length])),
    );
    const codes = results.map((r) => r.statusCode);
    assert.equal(codes.filter((s) => s === 201).length, 1, codes.join(','));
    assert.equal(codes.filter((s) => s === 409).length, 39, codes.join(','));
    await drainPrivacyQueue(rt.deps);
  });

  it('re-importing or re-seeding does not bring a forgotten person back, until an operator lifts it', async () => {
    // Alice of the demo tenant is forgotten in Acme-EN_GB only.
    const forget = await c.post('forget', { emailAddress: 'alice@example.com', clientNames: ['Acme-EN_GB'] });
    assert.equal(forget.statusCode, 201, forget.body);
    await drainPrivacyQueue(rt.deps);

    const again = await seedDemo(rt.deps, { environment: 'production' });
    assert.equal(again.skippedForgotten, 1);
    assert.ok(!again.reviewIds.includes('demo-acme-en_gb-1'));
    assert.ok(again.reviewIds.includes('demo-acme-de_de-1'), 'she is forgotten in Acme-EN_GB only');
    assert.deepEqual(await reviewIdsLeft(['demo-acme-en_gb-1']), []);

    // A file that names her by another of her identifiers (linked when she was forgotten) is refused too.
    const lines = [
      line('re-1', 'Acme-EN_GB', { name: 'Alice Example', authorId: 'alice-1' }),
      line('re-2', 'Acme-EN_GB', { name: 'Alice Example', phoneNumber: '+44 20 7946 0001' }),
      line('re-3', 'Acme-DE_DE', { name: 'Alice Example', authorId: 'alice-1' }),
      line('re-4', 'Acme-EN_GB', { name: HUGO.name, authorId: HUGO.authorId }),
    ];
    const dry = await importReviews(rt.deps, {
      lines: iterate(lines),
      environment: 'production',
      dryRun: true,
    });
    assert.deepEqual(
      {
        dryRun: dry.dryRun,
        imported: dry.imported,
        skippedForgotten: dry.skippedForgotten,
        rejected: dry.rejected,
      },
      { dryRun: true, imported: 2, skippedForgotten: 2, rejected: 0 },
    );
    assert.deepEqual(await reviewIdsLeft(['re-1', 're-2', 're-3', 're-4']), [], 'a dry run writes nothing');
    const real = await importReviews(rt.deps, { lines: iterate(lines), environment: 'production' });
    assert.equal(real.imported, 2);
    assert.equal(real.skippedForgotten, 2);
    assert.deepEqual(real.skipped, [
      { line: 1, clientName: 'Acme-EN_GB' },
      { line: 2, clientName: 'Acme-EN_GB' },
    ]);
    assert.deepEqual(await reviewIdsLeft(['re-1', 're-2', 're-3', 're-4']), ['re-3', 're-4']);

    // The operator lifts it, with a reason; the lift is recorded without her identifiers.
    const lifted = await liftSuppression(rt.deps, {
      environment: 'production',
      clientNames: ['Acme-EN_GB'],
      identifiers: { authorId: 'alice-1' },
      reason: 'she asked to be a customer again (ticket 4711)',
      liftedBy: 'ops@example.com',
    });
    assert.deepEqual(
      lifted.lifted.map((l) => ({ clientName: l.clientName, identifiers: l.identifiers })),
      [{ clientName: 'Acme-EN_GB', identifiers: 3 }],
    );
    const records = await rt.deps.store.db.selectFrom('privacy_suppression_lifts').selectAll().execute();
    assert.equal(records.length, 1);
    assert.equal(records[0]?.reason, 'she asked to be a customer again (ticket 4711)');
    assert.equal(records[0]?.lifted_by, 'ops@example.com');
    assert.ok(!JSON.stringify(records).includes('alice'));
    const after = await importReviews(rt.deps, { lines: iterate(lines), environment: 'production' });
    assert.equal(after.skippedForgotten, 0);
    assert.equal(after.imported, 2);
    await assert.rejects(
      liftSuppression(rt.deps, {
        environment: 'production',
        identifiers: { authorId: 'alice-1' },
        reason: 'again',
        liftedBy: 'ops',
      }),
      /no forgotten person/,
    );
  });

  it('refuses to import a person while a forget request for them is in progress', async () => {
    await importReviewsBy(rt.deps, HUGO, { clientName: 'Acme-EN_GB', count: 1, prefix: 'hugo-a' });
    const forget = await c.post('forget', { authorId: HUGO.authorId });
    assert.equal(forget.statusCode, 201, forget.body);
    const during = await importReviews(rt.deps, {
      lines: iterate([line('hugo-late', 'Acme-EN_GB', { name: HUGO.name, emailAddress: HUGO.emailAddress })]),
      environment: 'production',
    });
    assert.equal(during.skippedForgotten, 1);
    await drainPrivacyQueue(rt.deps);
    assert.deepEqual(await reviewIdsLeft(['hugo-a-0', 'hugo-late']), []);
  });

  it('leaves none of a person behind when imports of them race the forget request', async () => {
    const person = { name: 'Max Racer', authorId: 'max-race-1', emailAddress: 'max.racer@example.net' };
    let n = 0;
    const importSome = async () => {
      for (let round = 0; round < 20; round++) {
        const lines = Array.from({ length: 5 }, () =>
          line(`max-${n++}`, 'Acme-EN_GB', { name: person.name, emailAddress: person.emailAddress }),
        );
        await importReviews(rt.deps, { lines: iterate(lines), environment: 'production' });
      }
    };
    await importReviewsBy(rt.deps, person, { clientName: 'Acme-EN_GB', count: 2 });
    const forgetThenRun = async () => {
      await new Promise((r) => setTimeout(r, 5));
      const forget = await c.post('forget', { authorId: person.authorId, clientNames: ['Acme-EN_GB'] });
      assert.equal(forget.statusCode, 201, forget.body);
      await drainPrivacyQueue(rt.deps);
    };
    await Promise.all([importSome(), importSome(), forgetThenRun()]);
    // Whatever was imported before the suppression took effect was erased; nothing after it landed.
    const left = await rt.deps.store.db
      .selectFrom('reviews')
      .select('id')
      .where('author_email', '=', person.emailAddress)
      .execute();
    assert.deepEqual(left, []);
  });

  it('leaves no bytes of a person who had an export in the SQLite files', {
    skip: TEST_DIALECT !== 'sqlite',
  }, async () => {
    const kim = {
      name: 'Kim Bytescan',
      authorId: 'kim-bytes-5',
      emailAddress: 'kim.bytescan@example.org',
      phoneNumber: '+45 33 44 55 66',
    };
    const text = 'Kim wrote: the zebra-striped umbrella broke on day two';
    const lines = [
      line(
        'kim-1',
        'Acme-EN_GB',
        { name: kim.name, authorId: kim.authorId, emailAddress: kim.emailAddress },
        text,
      ),
      line(
        'kim-2',
        'Acme-DE_DE',
        { name: kim.name, emailAddress: kim.emailAddress, phoneNumber: kim.phoneNumber },
        text,
      ),
    ];
    await importReviews(rt.deps, { lines: iterate(lines), environment: 'production' });
    const control = await importReviewsBy(
      rt.deps,
      { name: 'Lou Control', emailAddress: 'lou.control@example.org' },
      {
        clientName: 'Acme-EN_GB',
        count: 1,
      },
    );
    assert.equal(control.length, 1);
    const access = await c.post('access', { phoneNumber: kim.phoneNumber });
    assert.equal(access.statusCode, 201, access.body);
    await drainPrivacyQueue(rt.deps);
    assert.ok((await c.get(`/accessRequests/${access.json().id}/export`)).body.includes(text));
    // By e-mail, which both of her reviews carry; the export was filed under her phone number.
    const forget = await c.post('forget', { emailAddress: kim.emailAddress });
    assert.equal(forget.statusCode, 201, forget.body);
    await drainPrivacyQueue(rt.deps);
    const download = await c.get(`/accessRequests/${access.json().id}/export`);
    for (const value of [kim.name, text]) assert.ok(!download.body.includes(value), `export holds ${value}`);

    const files = [dbFile, `${dbFile}-wal`].filter((f) => existsSync(f));
    const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
    assert.ok(bytes.includes(Buffer.from('lou.control@example.org')), 'control value not found');
    for (const value of [kim.name, kim.authorId, kim.emailAddress, kim.phoneNumber, text, '***66']) {
      assert.ok(!bytes.includes(Buffer.from(value, 'utf8')), `database files hold ${value}`);
    }
  });
});
