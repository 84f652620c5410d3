import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_MAX_ATTEMPTS } from '../../../src/domain/webhook-retry-schedule.js';
import type { ServiceDeps } from '../../../src/services/deps.js';
import { createPrivacyRequest } from '../../../src/services/privacy/create-privacy-request.js';
import { addWebhookEndpoint } from '../../../src/services/webhooks/add-webhook-endpoint.js';
import {
  attemptWebhookDelivery,
  claimWebhookDeliveries,
} from '../../../src/services/webhooks/deliver-due-webhooks.js';
import { enableWebhookEndpoint } from '../../../src/services/webhooks/enable-webhook-endpoint.js';
import {
  type DeliveryQuery,
  pageWebhookDeliveries,
} from '../../../src/services/webhooks/list-webhook-deliveries.js';
import {
  findWebhookEndpoint,
  pageWebhookEndpoints,
} from '../../../src/services/webhooks/list-webhook-endpoints.js';
import { purgeWebhookData } from '../../../src/services/webhooks/purge-webhook-data.js';
import { removeWebhookEndpoint } from '../../../src/services/webhooks/remove-webhook-endpoint.js';
import { rotateWebhookSecret } from '../../../src/services/webhooks/rotate-webhook-secret.js';
import { startWebhookWorker } from '../../../src/worker/webhook-worker.js';
import {
  drainPrivacyQueue,
  importReviewsBy,
  type PrivacyTenant,
  privacyClient,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../../helpers/test-runtime.js';
import {
  type Behaviour,
  type Receiver,
  startReceiver,
  webhookHeaders,
} from '../../helpers/webhook-receiver.js';

const LOOPBACK = { WEBHOOK_ALLOW_HTTP_HOSTS: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1' };

/** Every due delivery, one attempt each, in this process (what the worker does, step by step). */
async function sendDue(deps: ServiceDeps): Promise<string[]> {
  const owner = 'test-sender';
  const outcomes: string[] = [];
  for (const delivery of await claimWebhookDeliveries(deps, { owner, limit: 100 })) {
    outcomes.push(await attemptWebhookDelivery(deps, { owner, delivery }));
  }
  return outcomes;
}

describe(`webhooks on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  let deps: ServiceDeps;
  let tenant: PrivacyTenant;
  let now = Date.now();
  const receivers: Receiver[] = [];

  /** The tenant's deliveries as operators list them (production, newest event first). */
  const deliveriesOf = async (query: Omit<DeliveryQuery, 'environment'>) =>
    (await pageWebhookDeliveries(deps, { environment: 'production', ...query })).items;

  async function receiver(behaviour?: Behaviour): Promise<Receiver> {
    const r = await startReceiver(behaviour);
    receivers.push(r);
    return r;
  }

  before(async () => {
    t = await createTestApp({ ...LOOPBACK, WEBHOOK_TIMEOUT_MS: '300' }, { clock: () => now });
    deps = t.runtime.deps;
    tenant = await seedPrivacyTenant(deps);
  });
  /** The tenant's endpoints are production's. */
  const removeEveryEndpoint = async () => {
    for (const e of (await pageWebhookEndpoints(deps, { environment: 'production', limit: 1000 })).items)
      await removeWebhookEndpoint(deps, { environment: 'production', endpointId: e.id });
  };
  beforeEach(async () => {
    now = Date.now();
    // Each test starts with no endpoints, so one test's events never reach another's receiver.
    await removeEveryEndpoint();
  });
  after(async () => {
    for (const r of receivers) await r.close();
    await t.close();
  });

  function forget(email: string) {
    return createPrivacyRequest(deps, {
      type: 'forget',
      environment: 'production',
      applicationId: tenant.applicationId,
      identifiers: { emailAddress: email },
      baseUrl: 'https://api.reviews.test',
    });
  }

  it('sends created and completed events, signed as Standard Webhooks, with ids and links only', async () => {
    const inbox = await receiver();
    const { secret } = await addWebhookEndpoint(deps, {
      applicationId: tenant.applicationId,
      url: inbox.url,
    });
    const person = {
      name: 'Wanda Hookson',
      emailAddress: 'wanda@example.com',
      phoneNumber: '+4915112345678',
    };
    await importReviewsBy(deps, person, { clientName: 'Acme-EN_GB', count: 3 });
    const worker = startWebhookWorker(deps);
    try {
      const created = await privacyClient(t.app, tenant).post('forget', {
        emailAddress: person.emailAddress,
      });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().id as string;
      await drainPrivacyQueue(deps);
      const [first, second] = await inbox.waitFor(2);
      assert.ok(first && second);

      const wh = new Webhook(secret);
      const events = [first, second].map(
        (r) => wh.verify(r.body, webhookHeaders(r)) as Record<string, unknown>,
      );
      assert.deepEqual(
        events.map((e) => e.type),
        ['privacy.forget_request.created', 'privacy.forget_request.completed'],
      );
      const self = `http://localhost/privacy/v1/forgetRequests/${id}`;
      assert.equal(created.headers.location, self);
      assert.deepEqual(events[0]?.data, {
        id,
        clientNames: ['Acme-DE_DE', 'Acme-EN_GB'],
        status: 'PENDING',
        links: { self },
      });
      assert.deepEqual(events[1]?.data, {
        id,
        clientNames: ['Acme-DE_DE', 'Acme-EN_GB'],
        status: 'COMPLETED',
        links: { self },
      });
      for (const e of events)
        assert.match(String(e.timestamp), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      for (const r of [first, second]) {
        assert.match(String(r.headers['webhook-id']), /^msg_[0-9a-f]{32}$/);
        assert.equal(r.headers['content-type'], 'application/json');
        // Thin: nothing about the person, not even masked.
        for (const value of ['wanda', 'Wanda', '4915', 'Hookson', 'w***'])
          assert.ok(!r.body.includes(value), r.body);
      }
      assert.notEqual(first.headers['webhook-id'], second.headers['webhook-id']);
      // The receiver has answered; the worker records the answers right after.
      const listed = () => deliveriesOf({ app: tenant.applicationId, limit: 10 });
      let deliveries = await listed();
      while (deliveries.some((d) => d.status === 'pending')) {
        await new Promise((r) => setTimeout(r, 20));
        deliveries = await listed();
      }
      assert.deepEqual(
        deliveries.map((d) => [d.status, d.attempts, d.lastStatus]),
        [
          ['delivered', 1, 204],
          ['delivered', 1, 204],
        ],
      );
    } finally {
      await worker.stop();
    }
  });

  it('sends an endpoint only the events it subscribed to; an access request completed links its export', async () => {
    const all = await receiver();
    const completedOnly = await receiver();
    await addWebhookEndpoint(deps, { applicationId: tenant.applicationId, url: all.url });
    const { secret } = await addWebhookEndpoint(deps, {
      applicationId: tenant.applicationId,
      url: completedOnly.url,
      eventTypes: ['privacy.access_request.completed'],
    });
    await importReviewsBy(
      deps,
      { name: 'Abe Access', emailAddress: 'abe@example.com' },
      { clientName: 'Acme-DE_DE', count: 2 },
    );
    const request = await createPrivacyRequest(deps, {
      type: 'access',
      environment: 'production',
      applicationId: tenant.applicationId,
      clientNames: ['Acme-DE_DE'],
      identifiers: { emailAddress: 'abe@example.com' },
      baseUrl: 'https://api.reviews.test',
    });
    await drainPrivacyQueue(deps);
    assert.deepEqual(await sendDue(deps), ['delivered', 'delivered', 'delivered']);
    assert.equal(all.received.length, 2);
    assert.equal(completedOnly.received.length, 1);
    const [r] = completedOnly.received;
    assert.ok(r);
    const event = new Webhook(secret).verify(r.body, webhookHeaders(r)) as { type: string; data: unknown };
    const self = `https://api.reviews.test/privacy/v1/accessRequests/${request.id}`;
    assert.equal(event.type, 'privacy.access_request.completed');
    assert.deepEqual(event.data, {
      id: request.id,
      clientNames: ['Acme-DE_DE'],
      status: 'COMPLETED',
      links: { self, export: `${self}/export` },
    });
  });

  it('keeps trying a receiver that fails, honouring Retry-After, and delivers the same event once it is back', async () => {
    const flaky = await receiver((n) =>
      n < 2 ? { status: 503, headers: { 'retry-after': '20' } } : { status: 200 },
    );
    const { secret } = await addWebhookEndpoint(deps, {
      applicationId: tenant.applicationId,
      url: flaky.url,
      eventTypes: ['privacy.forget_request.created'],
    });
    const request = await forget('flaky@example.com');
    const t0 = now;
    assert.deepEqual(await sendDue(deps), ['retry']);
    let [d] = await deliveriesOf({ app: tenant.applicationId, limit: 1 });
    // The schedule says 5 s after the first failure; the receiver asked for 20.
    assert.deepEqual(
      [d?.status, d?.attempts, d?.lastStatus, d?.nextAttemptAt],
      ['pending', 1, 503, t0 + 20_000],
    );
    now = t0 + 19_000;
    assert.deepEqual(await sendDue(deps), [], 'not before Retry-After');
    now = t0 + 20_000;
    assert.deepEqual(await sendDue(deps), ['retry']);
    [d] = await deliveriesOf({ app: tenant.applicationId, limit: 1 });
    // After the second failure the schedule's minute is longer than the 20 s asked for.
    assert.deepEqual([d?.attempts, d?.nextAttemptAt], [2, t0 + 80_000]);
    now = t0 + 80_000;
    assert.deepEqual(await sendDue(deps), ['delivered']);
    [d] = await deliveriesOf({ app: tenant.applicationId, limit: 1 });
    assert.deepEqual([d?.status, d?.attempts, d?.lastStatus, d?.nextAttemptAt], ['delivered', 3, 200, null]);

    assert.equal(flaky.received.length, 3);
    const ids = new Set(flaky.received.map((r) => r.headers['webhook-id']));
    assert.equal(ids.size, 1, 'one webhook-id across retries');
    const last = flaky.received[2];
    assert.ok(last);
    const event = new Webhook(secret).verify(last.body, webhookHeaders(last)) as { data: { id: string } };
    assert.equal(event.data.id, request.id);
    assert.deepEqual(await sendDue(deps), [], 'nothing left once delivered');
    const metrics = await deps.metrics.scrape();
    assert.match(metrics, /rpa_webhook_attempts_total\{outcome="retry"\} [1-9]/);
    assert.match(metrics, /rpa_webhook_attempts_total\{outcome="delivered"\} [1-9]/);
    assert.match(metrics, /rpa_webhook_deliveries_pending 0/);
    assert.match(metrics, /rpa_webhook_oldest_due_seconds 0/);
  });

  it('gives up after the last retry, more than 24 hours after the event', async () => {
    const down = await receiver(() => ({ status: 500 }));
    const { secret } = await addWebhookEndpoint(deps, {
      applicationId: tenant.applicationId,
      url: down.url,
      eventTypes: ['privacy.forget_request.created'],
    });
    await forget('down@example.com');
    const t0 = now;
    const outcomes: string[] = [];
    for (;;) {
      const [d] = await deliveriesOf({ app: tenant.applicationId, limit: 1 });
      if (d?.status !== 'pending') break;
      now = d.nextAttemptAt ?? now;
      outcomes.push(...(await sendDue(deps)));
    }
    assert.equal(outcomes.length, WEBHOOK_MAX_ATTEMPTS);
    assert.deepEqual(outcomes, [...Array(WEBHOOK_MAX_ATTEMPTS - 1).fill('retry'), 'failed']);
    assert.ok(now - t0 >= 24 * 3_600_000, `last attempt ${(now - t0) / 3_600_000} h after the event`);
    const [d] = await deliveriesOf({ app: tenant.applicationId, limit: 1 });
    assert.deepEqual([d?.status, d?.attempts, d?.lastError], ['failed', WEBHOOK_MAX_ATTEMPTS, 'HTTP 500']);
    // Every attempt was signed for its own time (the timestamps are hours apart, so check the
    // signature itself rather than the library's five-minute window).
    const wh = new Webhook(secret);
    for (const r of down.received) {
      const h = webhookHeaders(r);
      assert.equal(
        h['webhook-signature'],
        wh.sign(h['webhook-id'], new Date(Number(h['webhook-timestamp']) * 1000), r.body),
      );
    }
  });

  it('stops sending to an endpoint that answers 410 Gone, until an operator enables it again', async () => {
    let gone = true;
    const inbox = await receiver(() => (gone ? { status: 410 } : { status: 200 }));
    const { endpoint } = await addWebhookEndpoint(deps, {
      applicationId: tenant.applicationId,
      url: inbox.url,
      eventTypes: ['privacy.forget_request.created'],
    });
    await forget('gone1@example.com');
    assert.deepEqual(await sendDue(deps), ['disabled']);
    const listed = await findWebhookEndpoint(deps, { environment: 'production', endpointId: endpoint.id });
    assert.equal(listed.status, 'disabled');
    const audit = await deps.store.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', endpoint.id)
      .where('action', '=', 'webhook_endpoint.disabled')
      .execute();
    assert.equal(audit.length, 1);

    await forget('gone2@example.com');
    assert.deepEqual(await sendDue(deps), [], 'a disabled endpoint is sent nothing');
    gone = false;
    await enableWebhookEndpoint(deps, { environment: 'production', endpointId: endpoint.id });
    assert.deepEqual(await sendDue(deps), ['delivered'], 'the event that waited goes out');
    const deliveries = await deliveriesOf({ endpointId: endpoint.id, limit: 10 });
    assert.deepEqual(deliveries.map((d) => d.status).sort(), ['delivered', 'failed']);
  });

  it('ends an attempt the receiver does not answer in time, and tries again', async () => {
    const silent = await receiver(() => 'hang');
    await addWebhookEndpoint(deps, {
      applicationId: tenant.applicationId,
      url: silent.url,
      eventTypes: ['privacy.forget_request.created'],
    });
    await forget('silent@example.com');
    const started = Date.now();
    assert.deepEqual(await sendDue(deps), ['retry']);
    assert.ok(Date.now() - started < 5_000);
    const [d] = await deliveriesOf({ app: tenant.applicationId, limit: 1 });
    assert.deepEqual([d?.status, d?.lastStatus, d?.lastError], ['pending', null, 'timeout']);
  });

  it('signs with the old and the new secret during a rotation, then with the new one only', async () => {
    const inbox = await receiver();
    const { endpoint, secret: oldSecret } = await addWebhookEndpoint(deps, {
      applicationId: tenant.applicationId,
      url: inbox.url,
      eventTypes: ['privacy.forget_request.created'],
    });
    const { secret: newSecret } = await rotateWebhookSecret(deps, {
      environment: 'production',
      endpointId: endpoint.id,
      graceMs: 60_000,
    });
    assert.notEqual(newSecret, oldSecret);
    await forget('rotate1@example.com');
    assert.deepEqual(await sendDue(deps), ['delivered']);
    const [during] = inbox.received;
    assert.ok(during);
    assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
    for (const s of [oldSecret, newSecret]) new Webhook(s).verify(during.body, webhookHeaders(during));

    now += 61_000;
    await forget('rotate2@example.com');
    assert.deepEqual(await sendDue(deps), ['delivered']);
    const afterGrace = inbox.received[1];
    assert.ok(afterGrace);
    assert.equal(String(afterGrace.headers['webhook-signature']).split(' ').length, 1);
    new Webhook(newSecret).verify(afterGrace.body, webhookHeaders(afterGrace));
    assert.throws(() => new Webhook(oldSecret).verify(afterGrace.body, webhookHeaders(afterGrace)));
    assert.equal((await purgeWebhookData(deps)).secrets, 1, 'the expired secret is deleted');
  });

  it('writes no event for a request that is refused, and none where nobody subscribed', async () => {
    const inbox = await receiver();
    await addWebhookEndpoint(deps, { applicationId: tenant.applicationId, url: inbox.url });
    await forget('twice@example.com');
    await assert.rejects(forget('twice@example.com'), /pending/);
    const messages = async () =>
      Number(
        (
          await deps.store.db
            .selectFrom('webhook_messages')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await messages();
    assert.deepEqual(await sendDue(deps), ['delivered'], 'the refused request left no event');

    await removeEveryEndpoint();
    await forget('nobody-listens@example.com');
    assert.equal(await messages(), before, 'no outbox row without a subscriber');
    await drainPrivacyQueue(deps);
    assert.equal(await messages(), before);

    // An endpoint added now gets the next request's event at once (on PostgreSQL the server
    // remembered that this application had none: adding one must make it forget that).
    await addWebhookEndpoint(deps, { applicationId: tenant.applicationId, url: inbox.url });
    await forget('listened-to-again@example.com');
    assert.equal(await messages(), before + 1);
  });

  it('drops the deliveries of a removed endpoint and purges finished ones after the retention', async () => {
    const inbox = await receiver(() => ({ status: 500 }));
    const { endpoint } = await addWebhookEndpoint(deps, {
      applicationId: tenant.applicationId,
      url: inbox.url,
    });
    await forget('removed@example.com');
    await removeWebhookEndpoint(deps, { environment: 'production', endpointId: endpoint.id });
    assert.deepEqual(await sendDue(deps), []);
    assert.equal(inbox.received.length, 0);

    const ok = await receiver();
    await addWebhookEndpoint(deps, { applicationId: tenant.applicationId, url: ok.url });
    await forget('purged@example.com');
    assert.deepEqual(await sendDue(deps), ['delivered']);
    now += (deps.config.webhooks.retentionDays + 1) * 86_400_000;
    const purged = await purgeWebhookData(deps);
    assert.ok(purged.deliveries >= 1 && purged.messages >= 2, JSON.stringify(purged));
    assert.deepEqual(await deliveriesOf({ limit: 10 }), []);
  });
});
