import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/http/build-server.js';
import { addWebhookEndpoint } from '../../src/services/webhooks/add-webhook-endpoint.js';
import { startPrivacyWorker } from '../../src/worker/privacy-worker.js';
import { startWebhookWorker } from '../../src/worker/webhook-worker.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { importReviewsBy, type PrivacyTenant, seedPrivacyTenant } from '../helpers/privacy-fixtures.js';
import {
  createTestRuntime,
  TEST_DIALECT,
  TEST_REDIS_URL,
  type TestRuntime,
} from '../helpers/test-runtime.js';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * Traces end to end (docs/tracing.md): a listening server and its workers export to this test's
 * own OTLP/HTTP receiver, once in each protocol. SERVER, CLIENT and INTERNAL are OTLP's SpanKind 2,
 * 3 and 1; a status of 2 is an error.
 */
const SERVER = 2;
const CLIENT = 3;
const DB_SYSTEM = TEST_DIALECT === 'postgres' ? 'postgresql' : 'sqlite';
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Every span of `traceId` below `root`, at any depth. */
function descendants(spans: readonly ReceivedSpan[], root: ReceivedSpan): ReceivedSpan[] {
  const found: ReceivedSpan[] = [];
  let parents = new Set([root.spanId]);
  while (parents.size > 0) {
    const children = spans.filter((s) => s.traceId === root.traceId && parents.has(s.parentSpanId));
    found.push(...children);
    parents = new Set(children.map((s) => s.spanId));
  }
  return found;
}

for (const protocol of ['http/protobuf', 'http/json'] as const) {
  describe(`traces over OTLP ${protocol} on ${TEST_DIALECT}${TEST_REDIS_URL ? ' + Redis' : ''}`, () => {
    let otlp: OtlpReceiver;
    let inbox: Receiver;
    let rt: TestRuntime;
    let app: FastifyInstance;
    let base: string;
    let tenant: PrivacyTenant;
    let workers: { stop(): Promise<void> }[] = [];
    /** request.traceId of each answered request, by its request id. */
    const traceIds = new Map<string, string | null>();

    before(async () => {
      otlp = await startOtlpReceiver();
      inbox = await startReceiver();
      rt = await createTestRuntime({
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.base,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_TRACES_SAMPLER: 'parentbased_always_on',
        OTEL_BSP_SCHEDULE_DELAY: '20',
        WORKER_POLL_INTERVAL_MS: '20',
        WEBHOOK_ALLOW_HTTP_HOSTS: '127.0.0.1',
        WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      });
      app = await buildServer(rt.http);
      app.addHook('onResponse', (request, _reply, done) => {
        traceIds.set(request.id, request.traceId);
        done();
      });
      base = await app.listen({ port: 0, host: '127.0.0.1' });
      tenant = await seedPrivacyTenant(rt.deps);
      await addWebhookEndpoint(rt.deps, { applicationId: tenant.applicationId, url: inbox.url });
      workers = [startPrivacyWorker(rt.deps), startWebhookWorker(rt.deps)];
    });
    after(async () => {
      for (const w of workers) await w.stop();
      await app?.close();
      await rt?.close();
      await inbox?.close();
      await otlp?.close();
    });

    /**
     * A forget request over HTTP, with `headers`; its status, id and request id. Its body arrives
     * in two parts, in separate callbacks of the connection, as a larger body would.
     */
    function forget(email: string, headers: Record<string, string> = {}) {
      const body = JSON.stringify({ emailAddress: email });
      return new Promise<{ status: number; id: string; requestId: string }>((resolve, reject) => {
        const req = httpRequest(`${base}/privacy/v1/forgetRequests?passkey=${tenant.privacyPasskey}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${tenant.token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...headers,
          },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string };
            const requestId = String(res.headers['x-request-id'] ?? '');
            resolve({ status: res.statusCode ?? 0, id: answer.id ?? '', requestId });
          });
        });
        req.flushHeaders();
        req.write(body.slice(0, 5));
        setTimeout(() => req.end(body.slice(5)), 30);
      });
    }

    it('continues the caller’s trace in a SERVER span whose statements are its children', async () => {
      const traceId = hex(16);
      const parentId = hex(8);
      const person = { name: 'Tracy Spanner', emailAddress: `tracy-${hex(4)}@example.com` };
      await importReviewsBy(rt.deps, person, { clientName: 'Acme-EN_GB', count: 2 });
      const created = await forget(person.emailAddress, { traceparent: `00-${traceId}-${parentId}-01` });
      assert.equal(created.status, 201);

      const server = await otlp.waitFor((s) => s.traceId === traceId && s.kind === SERVER);
      assert.equal(traceIds.get(created.requestId), traceId, 'request.traceId is the span’s trace');
      const line = rt.logs.lines
        .map((l) => JSON.parse(l) as { reqId?: string; msg?: string; traceId?: string })
        .find((l) => l.reqId === created.requestId && l.msg === 'request completed');
      assert.equal(line?.traceId, traceId, 'the request’s access line names its trace');
      assert.equal(server.parentSpanId, parentId);
      assert.equal(server.name, 'POST /privacy/v1/forgetRequests');
      assert.equal(server.attributes['http.route'], '/privacy/v1/forgetRequests');
      assert.equal(server.attributes['http.request.method'], 'POST');
      assert.equal(server.attributes['http.response.status_code'], 201);
      assert.equal(server.attributes['error.type'], undefined);
      assert.equal(server.resource['service.name'], 'reviews-partner-api');
      assert.ok(server.endNs > server.startNs);

      // The request is filed in its own context, whether alone or in a batch of a turn's writes.
      await otlp.waitFor((s) => s.traceId === traceId && s.name.startsWith('INSERT privacy_'));
      const statements = descendants(otlp.spans, server).filter(
        (s) => s.attributes['db.system.name'] === DB_SYSTEM,
      );
      assert.ok(statements.length > 0, 'statements below the SERVER span');
      for (const s of statements) {
        assert.equal(s.kind, CLIENT);
        assert.match(s.name, /^[A-Z]+( [a-z_]+)?$/, 'operation and table, never a value');
        assert.ok(!s.name.includes(person.emailAddress));
        assert.ok(s.startNs >= server.startNs && s.endNs <= server.endNs, `${s.name} within the request`);
      }

      // The worker carries the request out: its span, and the claim's span linked to it.
      const done = await otlp.waitFor(
        (s) => s.name === 'privacy request forget' && s.attributes['rpa.privacy_request.id'] === created.id,
      );
      assert.equal(done.attributes['rpa.privacy_request.outcome'], 'completed');
      // Carried out later, elsewhere, it is still part of the trace that filed it.
      assert.equal(done.traceId, traceId, 'the worker’s span continues the caller’s trace');
      assert.equal(done.parentSpanId, server.spanId, 'a child of the request that filed it');
      const claim = await otlp.waitFor(
        (s) => s.name === 'privacy requests process' && s.links.some((l) => l.spanId === done.spanId),
      );
      assert.ok(
        descendants(otlp.spans, claim).some((s) => s.attributes['db.system.name'] === DB_SYSTEM),
        'the erasure’s statements below the claim’s span',
      );
    });

    it('sends each webhook in a CLIENT span that the POST names as its parent', async () => {
      const { status } = await forget(`hooked-${hex(4)}@example.com`);
      assert.equal(status, 201);
      const [delivery] = await inbox.waitFor(inbox.received.length + 1);
      const traceparent = String(delivery?.headers.traceparent);
      const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(traceparent);
      assert.ok(m, `a W3C traceparent: ${traceparent}`);
      const post = await otlp.waitFor((s) => s.traceId === m[1] && s.spanId === m[2]);
      assert.equal(post.kind, CLIENT);
      assert.equal(post.name, 'POST');
      assert.equal(post.attributes['http.response.status_code'], 204);
      assert.equal(post.attributes['server.address'], '127.0.0.1');
      const attempt = await otlp.waitFor((s) => s.spanId === post.parentSpanId);
      assert.equal(attempt.name, 'webhook delivery');
      assert.equal(attempt.attributes['rpa.webhook.outcome'], 'delivered');
    });

    it('starts a trace of its own without a traceparent, and names the error answered', async () => {
      const r = await fetch(`${base}/privacy/v1/accessRequests/${hex(8)}?passkey=${tenant.privacyPasskey}`, {
        headers: { authorization: 'Bearer not-a-token' },
      });
      assert.equal(r.status, 401);
      const traceId = traceIds.get(r.headers.get('x-request-id') ?? '');
      assert.match(String(traceId), /^[0-9a-f]{32}$/);
      const server = await otlp.waitFor((s) => s.traceId === traceId && s.kind === SERVER);
      assert.equal(server.parentSpanId, '');
      assert.equal(server.name, 'GET /privacy/v1/accessRequests/:id');
      assert.equal(server.attributes['error.type'], 'INVALID_TOKEN');
      assert.equal(server.status, 0, 'a 4xx is not the server’s failure');
    });

    it('records nothing of a request whose caller did not sample it: request.traceId is null', async () => {
      const unsampled = hex(16);
      const skipped = await forget(`skipped-${hex(4)}@example.com`, {
        traceparent: `00-${unsampled}-${hex(8)}-00`,
      });
      const sampled = hex(16);
      await forget(`kept-${hex(4)}@example.com`, { traceparent: `00-${sampled}-${hex(8)}-01` });
      // Exported in the order ended: once the later request's span is in, the earlier one's would be.
      await otlp.waitFor((s) => s.traceId === sampled && s.kind === SERVER);
      assert.equal(traceIds.get(skipped.requestId), null);
      assert.deepEqual(
        otlp.spans.filter((s) => s.traceId === unsampled),
        [],
      );
    });

    if (TEST_REDIS_URL)
      it('puts Redis commands in the trace of the request that made them', async () => {
        const redis = await otlp.waitFor((s) => s.attributes['db.system.name'] === 'redis');
        assert.equal(redis.kind, CLIENT);
        assert.match(redis.name, /^[A-Z]+$/);
        const server = otlp.spans.find((s) => s.traceId === redis.traceId && s.kind === SERVER);
        assert.ok(server && descendants(otlp.spans, server).includes(redis), 'below a request’s span');
      });

    it('exported in the protocol configured', () => {
      const expected = protocol === 'http/json' ? 'application/json' : 'application/x-protobuf';
      assert.ok(otlp.contentTypes.length > 0);
      for (const type of otlp.contentTypes) assert.equal(type, expected);
    });
  });
}
