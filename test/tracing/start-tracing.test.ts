import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { loadConfig, type TracingConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startTracing, type Tracing } from '../../src/tracing/start-tracing.js';
import { LogCapture } from '../helpers/test-runtime.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
// Nothing listens there, and no span below is ended, so nothing is ever sent.
const BASE = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }).tracing as TracingConfig;
const started: Tracing[] = [];

function tracing(sampler: Partial<TracingConfig['sampler']> = {}, statements = true): Tracing {
  const config = { ...BASE, sampler: { ...BASE.sampler, ...sampler }, statements };
  const t = startTracing(config, createLogger('silent'));
  started.push(t);
  return t;
}

const request = (traceparent?: string) => ({
  method: 'GET',
  route: '/privacy/v1/accessRequests/:id',
  headers: traceparent ? { traceparent } : {},
});

describe('tracing on OpenTelemetry', () => {
  after(async () => {
    for (const t of started) await t.shutdown();
  });

  it('samples a tenth of new traces by default, and follows the caller’s decision', () => {
    const { tracer } = tracing();
    const recorded = Array.from({ length: 2000 }, () => tracer.startRequest(request())).filter(
      (s) => s.recording,
    );
    // Binomial(2000, 0.1): 200 ± 13.4; these bounds are 7 deviations out.
    assert.ok(recorded.length > 105 && recorded.length < 295, `${recorded.length} of 2000 sampled`);
    const traceId = hex(16);
    const followed = tracer.startRequest(request(`00-${traceId}-${hex(8)}-01`));
    assert.equal(followed.recording, true);
    assert.equal(followed.traceId, traceId);
    assert.equal(tracer.startRequest(request(`00-${hex(16)}-${hex(8)}-00`)).recording, false);
  });

  it('names each sampler OTEL_TRACES_SAMPLER takes', () => {
    const sampled = `00-${hex(16)}-${hex(8)}-01`;
    const cases: [TracingConfig['sampler']['name'], number, boolean, boolean][] = [
      ['always_on', 0, true, true],
      ['always_off', 1, false, false],
      ['traceidratio', 0, false, false],
      ['traceidratio', 1, true, true],
      ['parentbased_always_off', 1, false, true],
      ['parentbased_always_on', 0, true, true],
      ['parentbased_traceidratio', 0, false, true],
    ];
    for (const [name, ratio, root, child] of cases) {
      const { tracer } = tracing({ name, ratio });
      assert.equal(tracer.startRequest(request()).recording, root, `${name} ${ratio}: a new trace`);
      assert.equal(
        tracer.startRequest(request(sampled)).recording,
        child,
        `${name} ${ratio}: a sampled parent`,
      );
    }
  });

  it('makes statements children of the recorded span active, across awaits, and only while it runs', async () => {
    const { tracer } = tracing({ name: 'always_on' });
    const span = tracer.startRequest(request());
    assert.equal(tracer.startStatement('sqlite', 'SELECT reviews'), null, 'no span active');
    const inside = await tracer.within(span, async () => {
      await new Promise((r) => setImmediate(r));
      return tracer.startStatement('sqlite', 'SELECT reviews');
    });
    assert.equal(inside?.traceId, span.traceId);
    // Work asked for inside and done later, from elsewhere, still belongs to the request.
    const later = tracer.within(span, () => tracer.capture());
    assert.equal(later(() => tracer.startStatement('redis', 'EVALSHA'))?.traceId, span.traceId);
    span.end({ status: 200 });
    assert.equal(
      later(() => tracer.startStatement('redis', 'EVALSHA')),
      null,
      'an ended span records no more',
    );
  });

  it('keeps no context with TRACE_STATEMENTS=false: requests are traced, statements are not', async () => {
    const { tracer } = tracing({ name: 'always_on' }, false);
    const span = tracer.startRequest(request());
    assert.equal(span.recording, true);
    const inside = await tracer.within(span, async () => tracer.startStatement('sqlite', 'SELECT reviews'));
    assert.equal(inside, null);
    span.end({ status: 200 });
  });

  it('logs the first failed export of a series, and the export that ends it', async () => {
    let status = 400;
    const collector = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(status).end());
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const logs = new LogCapture();
    const { port } = collector.address() as AddressInfo;
    const { tracer, shutdown } = startTracing(
      {
        ...BASE,
        url: `http://127.0.0.1:${port}/v1/traces`,
        sampler: { name: 'always_on', ratio: 1 },
        batch: { ...BASE.batch, scheduledDelayMs: 10 },
      },
      createLogger('info', logs),
    );
    const messages = () => logs.lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    const exported = async (count: number) => {
      while (messages().length < count) {
        tracer.startRequest(request()).end({ status: 200 });
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      await exported(1);
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(messages(), ['trace export failed'], 'once, however many failed');
      status = 200;
      await exported(2);
      assert.deepEqual(messages(), ['trace export failed', 'trace export resumed']);
    } finally {
      await shutdown();
      collector.close();
    }
  });

  it('carries a span to the calls it makes as a W3C traceparent', () => {
    const { tracer } = tracing({ name: 'always_off' });
    const call = tracer.startCall('POST', new URL('https://hooks.example/rpa'));
    // Not sampled here, and said so, so the receiver does not sample it either.
    assert.match(call.carrier().traceparent, new RegExp(`^00-${call.traceId}-[0-9a-f]{16}-00$`));
  });
});
