import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
const tracing = (env: Record<string, string>) => loadConfig({ ...ENDPOINT, ...env }).tracing;

describe('tracing settings (OTEL_*)', () => {
  it('are off without an OTLP endpoint, or with OTEL_SDK_DISABLED', () => {
    assert.equal(loadConfig({}).tracing, null);
    assert.equal(tracing({ OTEL_SDK_DISABLED: 'true' }), null);
    assert.notEqual(tracing({ OTEL_SDK_DISABLED: 'false' }), null);
  });

  it('default to protobuf, parentbased_traceidratio at 0.1 and the SDK’s batch bounds', () => {
    const t = tracing({});
    assert.deepEqual(t, {
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      timeoutMs: 10_000,
      compression: 'none',
      resource: { 'service.name': 'reviews-partner-api' },
      sampler: { name: 'parentbased_traceidratio', ratio: 0.1 },
      statements: true,
      batch: { maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMs: 5000, exportTimeoutMs: 30_000 },
    });
    assert.ok(Object.isFrozen(t?.sampler));
  });

  it('append /v1/traces to the general endpoint’s path, and take the traces endpoint as it is', () => {
    assert.equal(
      tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://c.example/otlp/' })?.url,
      'https://c.example/otlp/v1/traces',
    );
    const own = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces.example:4318/custom' };
    assert.equal(tracing(own)?.url, 'http://traces.example:4318/custom');
    assert.equal(loadConfig(own).tracing?.url, 'http://traces.example:4318/custom');
    assert.throws(
      () => tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }),
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
  });

  it('take http/json, and refuse grpc by name', () => {
    assert.equal(tracing({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })?.protocol, 'http/json');
    assert.throws(
      () => tracing({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.variable === 'OTEL_EXPORTER_OTLP_PROTOCOL' &&
        /grpc is not supported: use http\/protobuf/.test(err.message),
    );
    // The traces setting wins over the general one, as for every OTLP setting.
    const both = { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' };
    assert.equal(tracing(both)?.protocol, 'http/json');
  });

  it('name the service by OTEL_SERVICE_NAME, then OTEL_RESOURCE_ATTRIBUTES, then the package', () => {
    const attributes = 'service.name=from-attributes,deployment.environment.name=prod,team=a%20b';
    assert.deepEqual(tracing({ OTEL_RESOURCE_ATTRIBUTES: attributes })?.resource, {
      'service.name': 'from-attributes',
      'deployment.environment.name': 'prod',
      team: 'a b',
    });
    const named = tracing({ OTEL_RESOURCE_ATTRIBUTES: attributes, OTEL_SERVICE_NAME: 'partner-api' });
    assert.equal(named?.resource['service.name'], 'partner-api');
    assert.throws(() => tracing({ OTEL_RESOURCE_ATTRIBUTES: 'novalue' }), /OTEL_RESOURCE_ATTRIBUTES/);
  });

  it('read the exporter’s header fields, timeout and compression, the traces ones first', () => {
    const t = tracing({
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=general',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=s%3Dcret,x-team=rpa',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
      OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip',
    });
    assert.deepEqual(t?.headers, { 'api-key': 's=cret', 'x-team': 'rpa' });
    assert.equal(t?.timeoutMs, 2500);
    assert.equal(t?.compression, 'gzip');
    assert.throws(
      () => tracing({ OTEL_EXPORTER_OTLP_COMPRESSION: 'zstd' }),
      /OTEL_EXPORTER_OTLP_COMPRESSION/,
    );
  });

  it('take the standard samplers and a ratio from 0 to 1', () => {
    assert.deepEqual(tracing({ OTEL_TRACES_SAMPLER: 'always_on' })?.sampler, {
      name: 'always_on',
      ratio: 0.1,
    });
    assert.deepEqual(
      tracing({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' })?.sampler,
      {
        name: 'traceidratio',
        ratio: 0.25,
      },
    );
    assert.equal(tracing({ OTEL_TRACES_SAMPLER_ARG: '1' })?.sampler.ratio, 1);
    for (const arg of ['1.5', '-0.1', 'half', '0x1'])
      assert.throws(() => tracing({ OTEL_TRACES_SAMPLER_ARG: arg }), /OTEL_TRACES_SAMPLER_ARG/, arg);
    assert.throws(() => tracing({ OTEL_TRACES_SAMPLER: 'jaeger_remote' }), /OTEL_TRACES_SAMPLER/);
  });

  it('bound the batch span processor, an export batch within the queue', () => {
    const t = tracing({
      OTEL_BSP_MAX_QUEUE_SIZE: '100',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '50',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_BSP_EXPORT_TIMEOUT: '1000',
    });
    assert.deepEqual(t?.batch, {
      maxQueueSize: 100,
      maxExportBatchSize: 50,
      scheduledDelayMs: 200,
      exportTimeoutMs: 1000,
    });
    assert.throws(
      () => tracing({ OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '200' }),
      /OTEL_BSP_MAX_EXPORT_BATCH_SIZE: must not exceed OTEL_BSP_MAX_QUEUE_SIZE/,
    );
  });

  it('record statements unless TRACE_STATEMENTS is false', () => {
    assert.equal(tracing({ TRACE_STATEMENTS: 'false' })?.statements, false);
    assert.throws(() => tracing({ TRACE_STATEMENTS: 'sometimes' }), /TRACE_STATEMENTS/);
  });

  it('refuse a malformed variable even while tracing is off, as any setting', () => {
    assert.throws(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: '2' }), /OTEL_TRACES_SAMPLER_ARG/);
  });
});
