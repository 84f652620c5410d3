import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { addWebhookEndpoint } from '../../src/services/webhooks/add-webhook-endpoint.js';
import { pageWebhookDeliveries } from '../../src/services/webhooks/list-webhook-deliveries.js';
import { importReviewsBy, type PrivacyTenant, seedPrivacyTenant } from '../helpers/privacy-fixtures.js';
import {
  createTestRuntime,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
  uniqueSchema,
} from '../helpers/test-runtime.js';
import { type Receiver, startReceiver, webhookHeaders } from '../helpers/webhook-receiver.js';
import { type Child, spawnRpa, startServe, stop, waitForOutput } from './child-processes.js';

const dir = mkdtempSync(join(tmpdir(), 'rpa-webhook-crash-'));
const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'crash.db')}`;
const env = {
  DATABASE_URL: databaseUrl,
  DATABASE_SCHEMA: schema ?? '',
  WEBHOOK_ALLOW_HTTP_HOSTS: '127.0.0.1',
  WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
  WEBHOOK_TIMEOUT_MS: '2000',
  WORKER_LEASE_MS: '500',
  WORKER_POLL_INTERVAL_MS: '50',
};

describe(`webhook delivery across a SIGKILL on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let tenant: PrivacyTenant;
  let inbox: Receiver;
  const children: Child[] = [];

  before(async () => {
    rt = await createTestRuntime(env, { databaseUrl, ...(schema ? { schema } : {}) });
    tenant = await seedPrivacyTenant(rt.deps);
    // The first request is never answered: the process sending it is killed while it waits.
    inbox = await startReceiver((n) => (n === 0 ? 'hang' : { status: 200 }));
  });
  after(async () => {
    for (const c of children) {
      if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
      await c.exited;
    }
    await inbox.close();
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers an event whose sender was killed after the commit and before the answer', async () => {
    const { secret } = await addWebhookEndpoint(rt.deps, {
      applicationId: tenant.applicationId,
      url: inbox.url,
    });
    await importReviewsBy(
      rt.deps,
      { name: 'Kim Killed', emailAddress: 'kim@example.com' },
      { clientName: 'Acme-EN_GB', count: 3 },
    );

    const server = await startServe(env);
    children.push(server);
    const created = await fetch(
      `http://127.0.0.1:${server.port}/privacy/v1/forgetRequests?passkey=${tenant.privacyPasskey}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ emailAddress: 'kim@example.com' }),
      },
    );
    assert.equal(created.status, 201, await created.clone().text());
    const requestId = ((await created.json()) as { id: string }).id;
    const [hung] = await inbox.waitFor(1);
    assert.ok(hung);
    server.process.kill('SIGKILL');
    await server.exited;

    // Committed with the change it reports, claimed by the dead process, never recorded as sent.
    const hungId = String(hung.headers['webhook-id']);
    const [waiting] = (
      await pageWebhookDeliveries(rt.deps, { environment: 'production', messageId: hungId, limit: 1 })
    ).items;
    assert.deepEqual([waiting?.status, waiting?.attempts], ['pending', 0]);

    const worker = spawnRpa(['worker'], env);
    children.push(worker);
    await waitForOutput(worker, /webhook worker started/);
    let deliveries = (await pageWebhookDeliveries(rt.deps, { environment: 'production', limit: 10 })).items;
    const deadline = Date.now() + 30_000;
    while (deliveries.length < 2 || deliveries.some((d) => d.status !== 'delivered')) {
      assert.ok(
        Date.now() < deadline,
        `deliveries still not made: ${JSON.stringify(deliveries)}\n${worker.output()}`,
      );
      await new Promise((r) => setTimeout(r, 50));
      deliveries = (await pageWebhookDeliveries(rt.deps, { environment: 'production', limit: 10 })).items;
    }
    assert.equal(await stop(worker), 0, worker.output());

    const wh = new Webhook(secret);
    const verified = inbox.received.map((r) => ({
      id: String(r.headers['webhook-id']),
      body: r.body,
      event: wh.verify(r.body, webhookHeaders(r)) as { type: string; data: { id: string } },
    }));
    const resent = verified.slice(1).find((v) => v.id === hungId);
    assert.ok(resent, 'the event the killed process was sending is sent again, under the same webhook-id');
    assert.equal(resent.body, hung.body);
    assert.deepEqual([...new Set(verified.map((v) => `${v.event.type} ${v.event.data.id}`))].sort(), [
      `privacy.forget_request.completed ${requestId}`,
      `privacy.forget_request.created ${requestId}`,
    ]);
  });
});
