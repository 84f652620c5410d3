import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { purgePrivacyData } from '../../../src/services/privacy/purge-privacy-data.js';
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

const DAY = 86_400_000;
const FRED = {
  name: 'Fred Exporter',
  authorId: 'fred-9',
  emailAddress: 'fred@example.com',
  phoneNumber: '+49 30 1234567',
};

describe(`access requests and their export on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  let tenant: PrivacyTenant;
  let c: PrivacyClient;
  let now = Date.parse('2026-05-01T08:00:00.000Z');
  let fredGb: string[];
  let fredDe: string[];

  before(async () => {
    t = await createTestApp(
      { PRIVACY_EXPORT_RETENTION_DAYS: '30', WORKER_BATCH_SIZE: '2' },
      { clock: () => now },
    );
    tenant = await seedPrivacyTenant(t.runtime.deps);
    c = privacyClient(t.app, tenant);
    fredGb = await importReviewsBy(t.runtime.deps, FRED, {
      clientName: 'Acme-EN_GB',
      count: 5,
      prefix: 'fred-gb',
    });
    fredDe = await importReviewsBy(
      t.runtime.deps,
      { name: FRED.name, emailAddress: 'FRED@EXAMPLE.COM' },
      { clientName: 'Acme-DE_DE', count: 2, prefix: 'fred-de' },
    );
    await respondTo(t.runtime.deps, tenant.applicationId, [fredGb[0] as string, fredGb[3] as string]);
  });
  after(() => t.close());

  it('exports everything held about the subject, one section per client, to the requester only', async () => {
    const created = await c.post('access', { emailAddress: 'fred@example.com' });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().id;

    const early = await c.get(`/accessRequests/${id}/export`);
    assert.equal(early.statusCode, 409);
    assert.equal(early.json().code, 'EXPORT_NOT_READY');
    assert.ok(early.headers['retry-after']);

    await drainPrivacyQueue(t.runtime.deps);
    const record = (await c.get(`/accessRequests/${id}`)).json();
    assert.equal(record.status, 'COMPLETED');
    assert.equal(record.links.export, `http://localhost/privacy/v1/accessRequests/${id}/export`);
    assert.equal(record.exportExpiresAt, '2026-05-31T08:00:00.000Z');
    assert.deepEqual(record.identifiers, [{ type: 'emailAddress', value: 'f***@e***' }]);
    assert.deepEqual(record.receipt.clients, [
      { clientName: 'Acme-DE_DE', reviews: 2, clientResponses: 0, profileFields: 4, accessExports: 0 },
      { clientName: 'Acme-EN_GB', reviews: 5, clientResponses: 2, profileFields: 20, accessExports: 0 },
    ]);

    const download = await c.get(`/accessRequests/${id}/export`);
    assert.equal(download.statusCode, 200);
    assert.equal(download.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(download.headers['cache-control'], 'no-store');
    assert.match(String(download.headers['content-disposition']), /^attachment; filename="access-export-/);
    const doc = download.json();
    assert.equal(doc.id, id);
    assert.equal(doc.type, 'accessExport');
    assert.equal(doc.expiresAt, '2026-05-31T08:00:00.000Z');
    assert.deepEqual(
      doc.clients.map((s: { clientName: string }) => s.clientName),
      ['Acme-DE_DE', 'Acme-EN_GB'],
    );
    const [de, gb] = doc.clients;
    assert.deepEqual(
      de.reviews.map((r: { id: string }) => r.id),
      fredDe,
    );
    assert.deepEqual(de.reviews[0].author, { name: 'Fred Exporter', emailAddress: 'FRED@EXAMPLE.COM' });
    assert.deepEqual(
      gb.reviews.map((r: { id: string }) => r.id),
      fredGb,
    );
    assert.deepEqual(gb.reviews[0].author, FRED);
    assert.equal(gb.reviews[0].text, 'Signed, Fred Exporter');
    assert.equal(gb.reviews[0].clientResponses.length, 1);
    assert.equal(gb.reviews[0].clientResponses[0].response, 'Thank you, Fred Exporter!');
    assert.equal(gb.reviews[1].clientResponses.length, 0);
    // Nobody else's reviews are in it.
    assert.ok(!download.body.includes('alice@example.com'));

    const other = privacyClient(t.app, await seedPrivacyTenant(t.runtime.deps));
    assert.equal((await other.get(`/accessRequests/${id}/export`)).statusCode, 404);
    const staging = privacyClient(t.app, await seedPrivacyTenant(t.runtime.deps, 'staging'), 'stg.localhost');
    assert.equal((await staging.get(`/accessRequests/${id}/export`)).statusCode, 404);
  });

  it('exports an empty section for a client that holds nothing about the subject', async () => {
    const created = await c.post('access', { authorId: 'nobody-here', clientNames: ['Acme-EN_GB'] });
    await drainPrivacyQueue(t.runtime.deps);
    const doc = (await c.get(`/accessRequests/${created.json().id}/export`)).json();
    assert.deepEqual(doc.clients, [{ clientName: 'Acme-EN_GB', reviews: [] }]);
  });

  it('purges exports when their download period ends', async () => {
    const { id } = (await c.post('access', { phoneNumber: '+49 30 1234567' })).json();
    await drainPrivacyQueue(t.runtime.deps);
    assert.equal((await c.get(`/accessRequests/${id}/export`)).statusCode, 200);

    now += 30 * DAY + 1;
    // Expired exports are refused even before housekeeping removes them.
    const expired = await c.get(`/accessRequests/${id}/export`);
    assert.equal(expired.statusCode, 410);
    assert.equal(expired.json().code, 'GONE');
    const record = (await c.get(`/accessRequests/${id}`)).json();
    assert.equal(record.exportExpiresAt, null);
    assert.equal(record.links.export, undefined);

    const purged = await purgePrivacyData(t.runtime.deps);
    assert.ok(purged.exports >= 2, JSON.stringify(purged));
    const left = await t.runtime.deps.store.db
      .selectFrom('privacy_exports')
      .select('request_id')
      .where('expires_at', '<=', now)
      .execute();
    assert.equal(left.length, 0);
  });
});
