import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { privacySubject } from '../../../src/domain/privacy-subject.js';
import { liftSuppression } from '../../../src/services/privacy/lift-suppression.js';
import { purgePrivacyData } from '../../../src/services/privacy/purge-privacy-data.js';
import { auditTrail } from '../../helpers/audit-trail.js';
import {
  drainPrivacyQueue,
  importReviewsBy,
  type PrivacyClient,
  type PrivacyTenant,
  privacyClient,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestApp, TEST_DIALECT, type TestApp, type TestRuntime } from '../../helpers/test-runtime.js';

const DAY = 86_400_000;
const GRETA = {
  name: 'Greta Auditsubject',
  authorId: 'greta-404',
  emailAddress: 'greta.audit@example.org',
  phoneNumber: '+49 30 1234 5678',
};

describe(`audit trail of privacy requests on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  let rt: TestRuntime;
  let app: FastifyInstance;
  let tenant: PrivacyTenant;
  let c: PrivacyClient;
  let now = Date.UTC(2026, 10, 24, 9, 0, 0);

  before(async () => {
    t = await createTestApp({}, { clock: () => now });
    ({ runtime: rt, app } = t);
    tenant = await seedPrivacyTenant(rt.deps);
    c = privacyClient(app, tenant);
    await importReviewsBy(rt.deps, GRETA, { clientName: 'Acme-EN_GB', count: 3, prefix: 'greta' });
  });
  after(() => t.close());

  const events = () => auditTrail(rt.deps);

  it('records the tenant set-up with the acting operator', async () => {
    const seeded = await events();
    const actions = seeded.map((e) => `${e.action} ${e.targetType}`);
    for (const expected of [
      'client.created client',
      'application.created application',
      'passkey.created passkey',
    ])
      assert.ok(actions.includes(expected), `${expected} in ${actions.join(', ')}`);
    const created = seeded.find((e) => e.action === 'application.created');
    assert.equal(created?.targetId, tenant.applicationId);
    assert.equal(created?.actor, 'server', 'deps made without an operator name act as the server');
    assert.equal(created?.details.clientId, tenant.clientId);
    const passkeys = seeded.filter((e) => e.action === 'passkey.created').map((e) => e.targetId);
    assert.ok(passkeys.includes(tenant.responsePasskeyId) && passkeys.includes(tenant.privacyPasskeyId));
  });

  it('records a forget request filed, completed and purged, with the receipt outliving the request', async () => {
    const filed = await c.post('forget', { emailAddress: GRETA.emailAddress, authorId: GRETA.authorId });
    assert.equal(filed.statusCode, 201, filed.body);
    const id = filed.json().id as string;
    now += 1000;
    assert.equal(await drainPrivacyQueue(rt.deps), 1);

    const about = (await events()).filter((e) => e.targetId === id);
    assert.deepEqual(
      about.map((e) => e.action),
      ['privacy_request.created', 'privacy_request.completed'],
    );
    const [createdEvent, completedEvent] = about;
    assert.equal(createdEvent?.actor, `application:${tenant.applicationId}`);
    assert.deepEqual(createdEvent?.details.identifierKinds, ['authorId', 'emailAddress']);
    assert.match(completedEvent?.actor ?? '', /^worker:test-/);
    const receipt = completedEvent?.details.receipt as Record<string, { reviews: number }>;
    assert.equal(receipt['Acme-EN_GB']?.reviews, 3);

    // Retention: gone from the database 90 days after completion, its receipt kept in the trail.
    now += 91 * DAY;
    const purged = await purgePrivacyData(rt.deps);
    assert.ok(purged.requests >= 1);
    assert.equal((await c.get(`/forgetRequests/${id}`)).statusCode, 404);
    const purgeEvent = (await events()).find(
      (e) => e.targetId === id && e.action === 'privacy_request.purged',
    );
    assert.ok(purgeEvent, 'a purge event');
    assert.equal(purgeEvent.actor, 'housekeeping');
    assert.deepEqual(purgeEvent.details.receipt, completedEvent?.details.receipt);
    assert.equal(purgeEvent.details.completedAt, completedEvent?.occurredAt);
    assert.equal(
      (await events()).filter((e) => e.targetId === id).length,
      3,
      'erasure and retention leave the trail whole',
    );
  });

  it("records a lifted suppression without the operator's free-text reason", async () => {
    await liftSuppression(rt.deps, {
      environment: 'production',
      identifiers: { emailAddress: GRETA.emailAddress },
      reason: `Greta came back: ${GRETA.emailAddress}`,
      liftedBy: 'ops',
    });
    const lifted = (await events()).filter((e) => e.action === 'suppression.lifted');
    // The request covered every client the application may use, so the person was suppressed in both.
    assert.deepEqual(lifted.map((e) => e.details.clientName).sort(), ['Acme-DE_DE', 'Acme-EN_GB']);
    for (const e of lifted) assert.equal(e.actor, 'server');
  });

  it('holds no personal data: no identifier value, masked value or keyed hash', async () => {
    const text = JSON.stringify(await rt.deps.store.db.selectFrom('audit_events').selectAll().execute());
    assert.ok(text.includes('privacy_request.completed'), 'the scan sees the trail');
    const subject = privacySubject(rt.deps.identifierKey, GRETA);
    const forbidden = [
      GRETA.name,
      GRETA.authorId,
      GRETA.emailAddress,
      GRETA.phoneNumber,
      'Greta',
      ...subject.map((s) => s.hash),
      ...subject.map((s) => s.masked),
    ];
    for (const value of forbidden) assert.ok(!text.includes(value), `the audit trail holds ${value}`);
  });
});
