/**
 * The only reader of process.env. Everything else receives the frozen Config.
 * Each variable is documented in docs/configuration.md.
 */

import { type Env, readBool, readEnum, readInt } from './config/env-readers.js';
import { readTrustedProxies, type TrustedProxies } from './config/read-trusted-proxies.js';
import {
  readAccessLog,
  readAuthFailureLimits,
  readConnections,
  readDatabaseUrl,
  readHashKey,
  readHostList,
  readHosts,
  readRedisSentinel,
  readRedisUrl,
  readSchema,
  readSideListener,
  readWindow,
} from './config/setting-readers.js';
import { readTracing, type TracingConfig } from './config/tracing-settings.js';

export { ConfigError } from './config/config-error.js';
export type { TrustedProxies } from './config/read-trusted-proxies.js';
export type { TracingConfig } from './config/tracing-settings.js';

export type FailMode = 'open' | 'closed';

export interface Config {
  readonly port: number;
  readonly host: string;
  /**
   * Prometheus metrics on a listener of their own, never the public port; null (the default)
   * serves none. Loopback by default: the scraper usually runs beside the process.
   */
  readonly metrics: { readonly port: number; readonly host: string } | null;
  /**
   * The admin API on a listener of its own (docs/operations.md, Admin API); null (the default)
   * serves none. Loopback by default: expose it on a private network or behind a TLS proxy only.
   */
  readonly admin: {
    readonly port: number;
    readonly host: string;
    readonly trustProxy: TrustedProxies | null;
  } | null;
  readonly databaseUrl: string;
  /**
   * Whether every process applies pending migrations as it starts. Off where a release runs
   * `rpa migrate` as its own step: instances started before it stay unready (/readyz) until it has.
   */
  readonly migrateOnStart: boolean;
  /** PostgreSQL schema to use (created if missing); null uses the server's search_path. */
  readonly databaseSchema: string | null;
  /**
   * PostgreSQL connections of this process, how long a statement waits for one (then 503), and
   * the deadlines of a statement: a request's, and background work's (docs/operations.md).
   */
  readonly databasePool: {
    readonly size: number;
    readonly timeoutMs: number;
    readonly statementTimeoutMs: number;
    readonly backgroundStatementTimeoutMs: number;
  };
  /**
   * REDIS_URL: the Redis to use, or with Sentinels only the credentials, database and TLS of the
   * connections to the primary they name.
   */
  readonly redisUrl: string | null;
  /** The Sentinels that name the Redis primary (REDIS_SENTINELS, REDIS_SENTINEL_MASTER). */
  readonly redisSentinel: {
    readonly sentinels: readonly { readonly host: string; readonly port: number }[];
    readonly masterName: string;
  } | null;
  /** How long one Redis command may take before it counts as failed (RATE_LIMIT_FAIL_MODE decides). */
  readonly redisCommandTimeoutMs: number;
  readonly publicScheme: 'http' | 'https';
  /** Host names (without port) answered; any other Host gets 421. Null answers every host. */
  readonly allowedHosts: readonly string[] | null;
  /** The public listener's proxies; null trusts none (X-Forwarded-* ignored). */
  readonly trustProxy: TrustedProxies | null;
  readonly logLevel: string;
  /**
   * Which answers get an access line, at `info` (docs/operations.md, Access log): `errors` keeps
   * 4xx, 5xx and slow calls only; `sample` is the share of the other lines kept when `on`.
   */
  readonly accessLog: {
    readonly mode: 'on' | 'errors' | 'off';
    readonly sample: number;
    readonly slowMs: number;
  };
  readonly tokenTtlSeconds: number;
  /** How long a validated bearer token may be served from memory before it is checked again. */
  readonly tokenCacheTtlMs: number;
  readonly defaultRateLimitPerMinute: number;
  readonly defaultQuotaPerDay: number;
  /** What a request does when the shared limiter store (Redis) cannot be reached. */
  readonly rateLimitFailMode: FailMode;
  /** How long an instance keeps allowance it leased for a passkey before giving back what is unspent. */
  readonly limitLeaseMs: number;
  /** Failed authentications per listener, address and credential (client id, admin token). */
  readonly authFailureLimit: number;
  /** Failed authentications per listener and address, whatever credential each named. */
  readonly authFailureAddressLimit: number;
  readonly authFailureWindowSeconds: number;
  /** Key for the keyed hashes of privacy identifiers; generated and kept in the database when unset. */
  readonly identifierHashKey: string | null;
  readonly worker: {
    readonly enabled: boolean;
    readonly pollIntervalMs: number;
    readonly leaseMs: number;
    readonly batchSize: number;
    /** Pending requests one lane claims together and erases in shared transactions. */
    readonly claimSize: number;
    /** Requests one worker process carries out at the same time. */
    readonly concurrency: number;
  };
  readonly privacy: {
    readonly listDays: number;
    readonly retentionDays: number;
    readonly exportRetentionDays: number;
    /** Rewriting the tables that held erased data (PostgreSQL keeps deleted rows in its files). */
    readonly compact: {
      readonly mode: 'off' | 'after-erasure' | 'daily';
      /** Minutes after 00:00 UTC; the window wraps midnight when the end is not after the start. */
      readonly window: { readonly startMinute: number; readonly endMinute: number };
    };
  };
  /** Standard Webhooks deliveries of privacy request events (docs/webhooks.md). */
  readonly webhooks: {
    /** Hosts events may be sent to over plain http (everything else is https only). */
    readonly allowHttpHosts: readonly string[];
    /** Hosts that may resolve to loopback, private or link-local addresses. */
    readonly allowPrivateHosts: readonly string[];
    /** One attempt's limit, from connecting to the end of the answer's headers. */
    readonly timeoutMs: number;
    /** Deliveries one worker process has in flight at once. */
    readonly concurrency: number;
    /** How long delivered and failed deliveries stay listed before housekeeping deletes them. */
    readonly retentionDays: number;
  };
  readonly bodyLimitBytes: number;
  readonly shutdownTimeoutMs: number;
  /** On SIGTERM, how long readiness fails while the listener still serves (docs/operations.md). */
  readonly shutdownDelayMs: number;
  /** Whether a shared dependency's outage fails /readyz (docs/operations.md). */
  readonly readinessRequiresDependencies: boolean;
  /** Bounds on slow or idle clients, so none can hold a connection for ever. */
  readonly connections: {
    /** From the start of a request until its whole body has arrived; then 408 and close. */
    readonly requestTimeoutMs: number;
    /** From the start of a request (or of the connection) until its header section has arrived. */
    readonly headersTimeoutMs: number;
    /** How long an idle keep-alive connection is kept open between requests. */
    readonly keepAliveTimeoutMs: number;
  };
  /**
   * Past either bound a call is refused at once with 503 and Retry-After (docs/operations.md,
   * Overload); 0 turns a bound off. Health probes are never refused.
   */
  readonly shed: {
    /** Mean event-loop delay over the last sample, in milliseconds. */
    readonly maxEventLoopDelayMs: number;
    /** Calls being served at once. */
    readonly maxInFlight: number;
  };
  /**
   * OpenTelemetry traces, exported over OTLP/HTTP (docs/tracing.md); null (no endpoint set, or
   * OTEL_SDK_DISABLED) loads nothing of OpenTelemetry.
   */
  readonly tracing: TracingConfig | null;
}

/** ADMIN_PORT and ADMIN_HOST, and the proxies trusted in front of the admin listener. */
function adminListener(env: Env, publicPort: number): Config['admin'] {
  // Read whether or not a port is set, so that configVariables() sees it.
  const trustProxy = readTrustedProxies(env, 'ADMIN_TRUST_PROXY');
  const listener = readSideListener(env, 'ADMIN', publicPort);
  return listener && { ...listener, trustProxy };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Config {
  const port = readInt(env, 'PORT', 8080, 0, 65535);
  const config: Config = {
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    metrics: readSideListener(env, 'METRICS', port),
    admin: adminListener(env, port),
    databaseUrl: readDatabaseUrl(env),
    migrateOnStart: readBool(env, 'MIGRATE_ON_START', true),
    databaseSchema: readSchema(env),
    databasePool: {
      size: readInt(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
      timeoutMs: readInt(env, 'DATABASE_POOL_TIMEOUT_MS', 1000, 100, 600_000),
      statementTimeoutMs: readInt(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 1000, 100, 600_000),
      backgroundStatementTimeoutMs: readInt(
        env,
        'DATABASE_BACKGROUND_STATEMENT_TIMEOUT_MS',
        300_000,
        1000,
        86_400_000,
      ),
    },
    redisUrl: readRedisUrl(env),
    redisSentinel: readRedisSentinel(env),
    redisCommandTimeoutMs: readInt(env, 'REDIS_COMMAND_TIMEOUT_MS', 1000, 50, 60_000),
    publicScheme: readEnum(env, 'PUBLIC_SCHEME', ['http', 'https'] as const, 'http'),
    allowedHosts: readHosts(env),
    trustProxy: readTrustedProxies(env, 'TRUST_PROXY'),
    logLevel: readEnum(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    accessLog: readAccessLog(env),
    tokenTtlSeconds: readInt(env, 'TOKEN_TTL_SECONDS', 3600, 60, 86400),
    tokenCacheTtlMs: readInt(env, 'TOKEN_CACHE_TTL_MS', 5000, 0, 60000),
    defaultRateLimitPerMinute: readInt(env, 'DEFAULT_RATE_LIMIT_PER_MINUTE', 600, 1, 10_000_000),
    defaultQuotaPerDay: readInt(env, 'DEFAULT_QUOTA_PER_DAY', 100_000, 1, 1_000_000_000),
    rateLimitFailMode: readEnum(env, 'RATE_LIMIT_FAIL_MODE', ['open', 'closed'] as const, 'closed'),
    limitLeaseMs: readInt(env, 'LIMIT_LEASE_MS', 1000, 10, 60_000),
    ...readAuthFailureLimits(env),
    authFailureWindowSeconds: readInt(env, 'AUTH_FAILURE_WINDOW_SECONDS', 300, 1, 86400),
    identifierHashKey: readHashKey(env),
    worker: {
      enabled: readBool(env, 'WORKER_ENABLED', true),
      pollIntervalMs: readInt(env, 'WORKER_POLL_INTERVAL_MS', 500, 10, 600_000),
      leaseMs: readInt(env, 'WORKER_LEASE_MS', 30_000, 100, 3_600_000),
      batchSize: readInt(env, 'WORKER_BATCH_SIZE', 500, 1, 100_000),
      claimSize: readInt(env, 'WORKER_CLAIM_SIZE', 100, 1, 1000),
      concurrency: readInt(env, 'WORKER_CONCURRENCY', 4, 1, 64),
    },
    privacy: {
      listDays: readInt(env, 'PRIVACY_LIST_DAYS', 30, 1, 3650),
      retentionDays: readInt(env, 'PRIVACY_RETENTION_DAYS', 90, 1, 3650),
      exportRetentionDays: readInt(env, 'PRIVACY_EXPORT_RETENTION_DAYS', 30, 1, 3650),
      compact: {
        // Off by default: a rewrite locks each table while it runs, so only the operator turns it on.
        mode: readEnum(env, 'PRIVACY_COMPACT', ['off', 'after-erasure', 'daily'] as const, 'off'),
        window: readWindow(env, 'PRIVACY_COMPACT_WINDOW', '02:00-05:00'),
      },
    },
    webhooks: {
      allowHttpHosts: readHostList(env, 'WEBHOOK_ALLOW_HTTP_HOSTS'),
      allowPrivateHosts: readHostList(env, 'WEBHOOK_ALLOW_PRIVATE_HOSTS'),
      timeoutMs: readInt(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100, 120_000),
      concurrency: readInt(env, 'WEBHOOK_CONCURRENCY', 16, 1, 256),
      retentionDays: readInt(env, 'WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
    },
    bodyLimitBytes: readInt(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
    shutdownTimeoutMs: readInt(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    shutdownDelayMs: readInt(env, 'SHUTDOWN_DELAY_MS', 3_000, 0, 600_000),
    readinessRequiresDependencies: readBool(env, 'READINESS_REQUIRES_DEPENDENCIES', false),
    connections: readConnections(env),
    shed: {
      maxEventLoopDelayMs: readInt(env, 'SHED_MAX_EVENT_LOOP_DELAY_MS', 200, 0, 60_000),
      maxInFlight: readInt(env, 'SHED_MAX_IN_FLIGHT', 128, 0, 1_000_000),
    },
    tracing: readTracing(env),
  };
  return deepFreeze(config);
}

/**
 * The names of the variables loadConfig reads, in the order it reads them: recorded from the
 * readers themselves, so `rpa serve --help` cannot list fewer than they read. Every reader reads
 * its variables whatever the others hold.
 */
export function configVariables(): readonly string[] {
  const read = new Set<string>();
  loadConfig(
    new Proxy({} as Env, {
      get(_, name) {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    }),
  );
  return [...read];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
