import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../../src/http/build-server.js';
import { createClient } from '../../../src/services/tenancy/create-client.js';
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

/** The subject: every value that identifies her, as the reviews stored it. */
const DORA = {
  name: 'Dora Subjectname',
  authorId: 'dora-77',
  emailAddress: 'dora.subject@example.com',
  phoneNumber: '+33 1 23 45 67 89',
};
const EVAN = { name: 'Evan Bystander', authorId: 'evan-5', emailAddress: 'evan.bystander@example.com' };

const dir = mkdtempSync(join(tmpdir(), 'rpa-erasure-'));
const dbFile = join(dir, 'erasure.db');

describe(`erasure of one person on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let app: FastifyInstance;
  let tenant: PrivacyTenant;
  let c: PrivacyClient;
  const dora: Record<string, string[]> = {};

  before(async () => {
    // A database file on SQLite, so the test can read the bytes it leaves on disk.
    rt = await createTestRuntime(
      { WORKER_BATCH_SIZE: '4' },
      TEST_DIALECT === 'sqlite' ? { databaseUrl: `sqlite:${dbFile}` } : {},
    );
    app = await buildServer(rt.http);
    await app.ready();
    const deps = rt.deps;
    tenant = await seedPrivacyTenant(deps);
    c = privacyClient(app, tenant);

    dora.gbFull = await importReviewsBy(deps, DORA, {
      clientName: 'Acme-EN_GB',
      count: 10,
      prefix: 'dora-gb',
    });
    dora.gbId = await importReviewsBy(
      deps,
      { name: DORA.name, authorId: DORA.authorId },
      { clientName: 'Acme-EN_GB', count: 3, prefix: 'dora-gbid' },
    );
    // Upper case: the keyed hash is of the normalized value, so a lower-case request still finds it.
    dora.deMail = await importReviewsBy(
      deps,
      { name: DORA.name, emailAddress: 'Dora.Subject@Example.com' },
      { clientName: 'Acme-DE_DE', count: 6, prefix: 'dora-de' },
    );
    await respondTo(deps, tenant.applicationId, [
      ...(dora.gbFull.slice(0, 4) as string[]),
      dora.gbId[0] as string,
      ...(dora.deMail.slice(0, 2) as string[]),
    ]);
    const evan = await importReviewsBy(deps, EVAN, { clientName: 'Acme-EN_GB', count: 5, prefix: 'evan-gb' });
    await respondTo(deps, tenant.applicationId, evan.slice(0, 3));
    await respondTo(deps, tenant.applicationId, tenant.reviewIds.slice(0, 2));
  });

  after(async () => {
    await app.close();
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function snapshot() {
    const db = rt.deps.store.db;
    const reviews = await db.selectFrom('reviews').selectAll().orderBy('id').execute();
    const responses = await db.selectFrom('client_responses').selectAll().orderBy('id').execute();
    const identifiers = await db
      .selectFrom('review_identifiers')
      .selectAll()
      .orderBy('review_id')
      .orderBy('kind')
      .execute();
    return { reviews, responses, identifiers };
  }

  it('erases the subject in the named clients, and nothing else', async () => {
    const deps = rt.deps;
    // Her reviews in a client outside the request and in staging are out of scope and stay.
    await createClient(deps, { environment: 'production', name: 'Globex-FR' });
    const outOfScope = await importReviewsBy(deps, DORA, {
      clientName: 'Globex-FR',
      count: 2,
      prefix: 'dora-fr',
    });
    await seedPrivacyTenant(deps, 'staging');
    const staging = await importReviewsBy(deps, DORA, {
      clientName: 'Acme-EN_GB',
      count: 2,
      environment: 'staging',
      prefix: 'dora-stg',
    });

    // Earlier access requests, by this application and another one, hold exports of her.
    const access = (await c.post('access', { emailAddress: DORA.emailAddress })).json();
    // Her authorId is linked to that e-mail through her reviews: same end user, so one at a time.
    await drainPrivacyQueue(deps);
    const otherApp = await seedPrivacyTenant(deps);
    const otherAccess = (
      await privacyClient(app, otherApp).post('access', {
        authorId: DORA.authorId,
        clientNames: ['Acme-EN_GB'],
      })
    ).json();
    await drainPrivacyQueue(deps);
    assert.equal((await c.get(`/accessRequests/${access.id}/export`)).statusCode, 200);
    assert.ok((await exportTablesText(deps)).includes(DORA.authorId), 'the exports hold her');

    const doraIds = new Set([...(dora.gbFull ?? []), ...(dora.gbId ?? []), ...(dora.deMail ?? [])]);
    const before = await snapshot();
    const created = await c.post('forget', {
      authorId: DORA.authorId,
      emailAddress: DORA.emailAddress,
      phoneNumber: '+33123456789',
    });
    assert.equal(created.statusCode, 201, created.body);
    await drainPrivacyQueue(deps);
    const after = await snapshot();

    // Everything that is not hers is untouched, row for row.
    assert.deepEqual(
      after.reviews,
      before.reviews.filter((r) => !doraIds.has(r.id)),
    );
    assert.deepEqual(
      after.responses,
      before.responses.filter((r) => !doraIds.has(r.review_id)),
    );
    assert.deepEqual(
      after.identifiers,
      before.identifiers.filter((i) => !doraIds.has(i.review_id)),
    );
    assert.ok(before.responses.length - after.responses.length === 7);
    // Out of scope: other client, other environment.
    for (const id of [...outOfScope, ...staging])
      assert.ok(
        after.reviews.some((r) => r.id === id),
        id,
      );

    const record = (await c.get(`/forgetRequests/${created.json().id}`)).json();
    assert.equal(record.status, 'COMPLETED');
    assert.deepEqual(record.identifiers, [
      { type: 'authorId', value: null },
      { type: 'emailAddress', value: null },
      { type: 'phoneNumber', value: null },
    ]);
    assert.deepEqual(record.receipt.clients, [
      { clientName: 'Acme-DE_DE', reviews: 6, clientResponses: 2, profileFields: 12, accessExports: 1 },
      { clientName: 'Acme-EN_GB', reviews: 13, clientResponses: 5, profileFields: 46, accessExports: 2 },
    ]);

    // What the earlier access requests held of her is gone too.
    assert.equal((await c.get(`/accessRequests/${access.id}/export`)).statusCode, 410);
    const accessRecord = (await c.get(`/accessRequests/${access.id}`)).json();
    assert.deepEqual(accessRecord.identifiers, [{ type: 'emailAddress', value: null }]);
    assert.equal(
      (await privacyClient(app, otherApp).get(`/accessRequests/${otherAccess.id}/export`)).statusCode,
      410,
    );
    const exported = await exportTablesText(deps);
    for (const value of [DORA.name, DORA.authorId]) assert.ok(!exported.includes(value), value);

    // The request record keeps keyed hashes only: no column of the privacy tables holds her.
    const rows = [
      ...(await deps.store.db.selectFrom('privacy_requests').selectAll().execute()),
      ...(await deps.store.db.selectFrom('privacy_request_identifiers').selectAll().execute()),
      ...(await deps.store.db.selectFrom('privacy_request_clients').selectAll().execute()),
      ...(await deps.store.db.selectFrom('privacy_pending_keys').selectAll().execute()),
    ];
    const text = JSON.stringify(rows).toLowerCase();
    for (const value of [DORA.name, DORA.authorId, DORA.emailAddress, '33123456789']) {
      assert.ok(!text.includes(value.toLowerCase()), `privacy tables hold ${value}`);
    }

    // Remove the out-of-scope copies too, so the file check below is about this subject only.
    await c.post('forget', { emailAddress: DORA.emailAddress, clientNames: ['Acme-EN_GB'] });
    await deps.store.db
      .deleteFrom('reviews')
      .where('id', 'in', [...outOfScope, ...staging])
      .execute();
    await drainPrivacyQueue(deps);
    const logs = rt.logs.text();
    for (const value of [DORA.name, DORA.authorId, DORA.emailAddress, DORA.phoneNumber]) {
      assert.ok(!logs.includes(value), `a log line holds ${value}`);
    }
  });

  it('leaves no bytes of the subject in the SQLite files (main database and WAL)', {
    skip: TEST_DIALECT !== 'sqlite',
  }, () => {
    const files = [dbFile, `${dbFile}-wal`].filter((f) => existsSync(f));
    const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
    assert.ok(bytes.length > 0);
    // The search works: a person who was not erased is found.
    assert.ok(bytes.includes(Buffer.from(EVAN.emailAddress)), 'control value not found');
    for (const value of [
      DORA.name,
      DORA.authorId,
      DORA.emailAddress,
      'Dora.Subject@Example.com',
      DORA.phoneNumber,
    ]) {
      assert.ok(!bytes.includes(Buffer.from(value, 'utf8')), `database files hold ${value}`);
    }
  });
});
