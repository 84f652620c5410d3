import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Logger } from 'pino';
import type { TracingConfig } from '../config.js';
import type { Tracer } from '../domain/tracer.js';
import { PACKAGE_NAME, VERSION } from '../version.js';
import { createOtelTracer, NO_CONTEXTS } from './otel-tracer.js';
import { traceRedisCommands } from './redis-command-spans.js';

/*
 * OpenTelemetry's SDK, set up from the configuration alone (docs/tracing.md). The runtime imports
 * this module only when tracing is configured, so an untraced process loads none of it.
 */

export interface Tracing {
  readonly tracer: Tracer;
  /** Stops taking spans, exports those still held (within OTEL_BSP_EXPORT_TIMEOUT), and ends; never fails. */
  shutdown(): Promise<void>;
}

/** The samplers OTEL_TRACES_SAMPLER names (the SDK's own environment reading, given values instead). */
function sampler({ name, ratio }: TracingConfig['sampler']): Sampler {
  const root = name.endsWith('always_on')
    ? new AlwaysOnSampler()
    : name.endsWith('always_off')
      ? new AlwaysOffSampler()
      : new TraceIdRatioBasedSampler(ratio);
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/**
 * The exporter, logging the first failed export of a series and the export that ends it, not every
 * one: a collector that is down would otherwise write a line every few seconds.
 */
function exporter(config: TracingConfig, logger: Logger): SpanExporter {
  const options = {
    url: config.url,
    headers: { ...config.headers },
    timeoutMillis: config.timeoutMs,
    compression: config.compression as NonNullable<
      ConstructorParameters<typeof JsonExporter>[0]
    >['compression'],
  };
  const inner = config.protocol === 'http/json' ? new JsonExporter(options) : new ProtobufExporter(options);
  let failing = false;
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      inner.export(spans, (result) => {
        const failed = result.code !== ExportResultCode.SUCCESS;
        if (failed && !failing) logger.warn({ err: result.error, url: config.url }, 'trace export failed');
        if (!failed && failing) logger.info({ url: config.url }, 'trace export resumed');
        failing = failed;
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush(),
  };
}

export function startTracing(config: TracingConfig, logger: Logger): Tracing {
  const resource = defaultResource().merge(
    resourceFromAttributes({ [ATTR_SERVICE_VERSION]: VERSION, ...config.resource }),
  );
  const { maxQueueSize, maxExportBatchSize, scheduledDelayMs, exportTimeoutMs } = config.batch;
  const provider = new BasicTracerProvider({
    resource,
    sampler: sampler(config.sampler),
    spanProcessors: [
      new BatchSpanProcessor(exporter(config, logger), {
        maxQueueSize,
        maxExportBatchSize,
        scheduledDelayMillis: scheduledDelayMs,
        exportTimeoutMillis: exportTimeoutMs,
      }),
    ],
  });
  // AsyncLocalStorage carries the active span across awaits, timers and callbacks, for the
  // statements' spans; once a first span is entered, Node tracks every asynchronous operation of
  // the process for it (docs/tracing.md, What it costs).
  const contexts = config.statements ? new AsyncLocalStorageContextManager().enable() : null;
  const tracer = createOtelTracer(provider.getTracer(PACKAGE_NAME, VERSION), contexts ?? NO_CONTEXTS);
  const stopRedisSpans = contexts ? traceRedisCommands(tracer) : () => {};
  return {
    tracer,
    async shutdown() {
      stopRedisSpans();
      // A collector that cannot be reached must not fail the process's stop: the spans are lost.
      await provider
        .shutdown()
        .catch((err: unknown) => logger.warn({ err, url: config.url }, 'trace export failed at shutdown'));
      contexts?.disable();
    },
  };
}
