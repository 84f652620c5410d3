import { PACKAGE_NAME } from '../version.js';
import { ConfigError } from './config-error.js';
import { type Env, readBool, readEnum, readInt } from './env-readers.js';

/*
 * OpenTelemetry's own variables (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/
 * and the OTLP exporter's), read here like every other setting so the SDK is handed values, not
 * the environment (docs/tracing.md). A variable set to something this server cannot honour is
 * refused, whether or not tracing is on, as any other setting would be.
 */

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

type SamplerName = (typeof SAMPLERS)[number];

export interface TracingConfig {
  /** Where spans are POSTed: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or /v1/traces under OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  readonly protocol: 'http/protobuf' | 'http/json';
  /** Header fields of every export (a collector's credentials): never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly compression: 'gzip' | 'none';
  /** The resource's attributes, `service.name` included. */
  readonly resource: Readonly<Record<string, string>>;
  /** Which root spans are sampled; `ratio` for the traceidratio samplers. */
  readonly sampler: { readonly name: SamplerName; readonly ratio: number };
  /**
   * TRACE_STATEMENTS: spans of statements and Redis commands, which need the request's context
   * carried across every await (AsyncLocalStorage, a cost on every request: docs/tracing.md).
   */
  readonly statements: boolean;
  /** The batch span processor's bounds (OTEL_BSP_*). */
  readonly batch: {
    readonly maxQueueSize: number;
    readonly maxExportBatchSize: number;
    readonly scheduledDelayMs: number;
    readonly exportTimeoutMs: number;
  };
}

/** The traces setting if set, else the setting of every signal: the OTLP exporter's precedence. */
function either(env: Env, traces: string, general: string): string {
  return env[traces]?.trim() ? traces : general;
}

/** `key=value` pairs separated by commas, values percent-encoded (OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS). */
function readPairs(env: Env, name: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const item of (env[name] ?? '').split(',')) {
    if (!item.trim()) continue;
    const at = item.indexOf('=');
    const key = at > 0 ? item.slice(0, at).trim() : '';
    if (!key) throw new ConfigError(name, 'expected key=value pairs separated by commas');
    try {
      pairs[key] = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      throw new ConfigError(name, `the value of ${key} is not percent-encoded text`);
    }
  }
  return pairs;
}

/** The traces URL, or null when neither endpoint is set. */
function readEndpoint(env: Env): string | null {
  const name = either(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const raw = env[name]?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an http:// or https:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(name, `expected an http:// or https:// URL, got "${raw}"`);
  if (name === 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') return url.href;
  // The signal's path is appended to the general endpoint's, whatever that path is.
  url.pathname = `${url.pathname.replace(/\/$/, '')}/v1/traces`;
  return url.href;
}

function readProtocol(env: Env): TracingConfig['protocol'] {
  const name = either(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL');
  const protocol = readEnum(env, name, ['http/protobuf', 'http/json', 'grpc'] as const, 'http/protobuf');
  if (protocol === 'grpc')
    throw new ConfigError(
      name,
      'grpc is not supported: use http/protobuf (a collector takes it on port 4318) or http/json',
    );
  return protocol;
}

/** OTEL_TRACES_SAMPLER_ARG: a ratio from 0 to 1. */
function readRatio(env: Env): number {
  const raw = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!raw) return 0.1;
  const ratio = /^(\d+(\.\d*)?|\.\d+)$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(ratio >= 0 && ratio <= 1))
    throw new ConfigError('OTEL_TRACES_SAMPLER_ARG', `expected a ratio from 0 to 1, got "${raw}"`);
  return ratio;
}

function readBatch(env: Env): TracingConfig['batch'] {
  const maxQueueSize = readInt(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, 1, 1_000_000);
  const maxExportBatchSize = readInt(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, 1, 1_000_000);
  if (maxExportBatchSize > maxQueueSize)
    throw new ConfigError(
      'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
      `must not exceed OTEL_BSP_MAX_QUEUE_SIZE (${maxQueueSize}), got ${maxExportBatchSize}`,
    );
  return {
    maxQueueSize,
    maxExportBatchSize,
    scheduledDelayMs: readInt(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, 0, 3_600_000),
    exportTimeoutMs: readInt(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30_000, 1, 3_600_000),
  };
}

/**
 * Tracing when an OTLP endpoint is set and OTEL_SDK_DISABLED is not true; null otherwise, and
 * nothing of OpenTelemetry is loaded then (runtime.ts). Every variable is read either way.
 */
export function readTracing(env: Env): TracingConfig | null {
  const disabled = readBool(env, 'OTEL_SDK_DISABLED', false);
  const url = readEndpoint(env);
  const protocol = readProtocol(env);
  const headers = readPairs(
    env,
    either(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', 'OTEL_EXPORTER_OTLP_HEADERS'),
  );
  const timeoutMs = readInt(
    env,
    either(env, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 'OTEL_EXPORTER_OTLP_TIMEOUT'),
    10_000,
    1,
    600_000,
  );
  const compression = readEnum(
    env,
    either(env, 'OTEL_EXPORTER_OTLP_TRACES_COMPRESSION', 'OTEL_EXPORTER_OTLP_COMPRESSION'),
    ['gzip', 'none'] as const,
    'none',
  );
  const attributes = readPairs(env, 'OTEL_RESOURCE_ATTRIBUTES');
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || attributes['service.name'] || PACKAGE_NAME;
  const sampler = {
    name: readEnum(env, 'OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_traceidratio'),
    ratio: readRatio(env),
  };
  const batch = readBatch(env);
  const statements = readBool(env, 'TRACE_STATEMENTS', true);
  if (disabled || url === null) return null;
  return {
    url,
    protocol,
    headers,
    timeoutMs,
    compression,
    resource: { ...attributes, 'service.name': serviceName },
    sampler,
    statements,
    batch,
  };
}
