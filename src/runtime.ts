import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type Config, ConfigError } from './config.js';
import type { HttpDeps } from './http/http-deps.js';
import { createLogger } from './logger.js';
import { createAuthFailureThrottle } from './services/auth/create-auth-failure-throttle.js';
import { createTokenVerifier } from './services/auth/create-token-verifier.js';
import type { ServiceDeps } from './services/deps.js';
import { createOutageLog } from './services/health/create-outage-log.js';
import { describePendingMigrations } from './services/health/describe-pending-migrations.js';
import { reportDatabaseOutage } from './services/health/report-database-outage.js';
import { createPasskeyLimiter } from './services/limits/create-passkey-limiter.js';
import { createMetrics } from './services/metrics/create-metrics.js';
import { resolveIdentifierKey } from './services/privacy/resolve-identifier-key.js';
import { createWorkSignal } from './services/privacy/work-signal.js';
import { createPasskeyUsage } from './services/tenancy/create-passkey-usage.js';
import { createTenancyCache } from './services/tenancy/create-tenancy-cache.js';
import { createRedisClient } from './store/create-redis-client.js';
import { openStore, parseDatabaseUrl, type Store, type StoreOptions } from './store/database.js';
import { describeOpenFailure, isDatabaseUnavailable } from './store/driver-errors.js';
import { type MigrationOutcome, migrateToLatest, migrations, pendingMigrations } from './store/migrate.js';
import type { Tracing } from './tracing/start-tracing.js';

export interface Runtime {
  readonly deps: ServiceDeps;
  /** Dependencies of the HTTP layer: the services' plus token verification and the limiter. */
  readonly http: HttpDeps;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  logger?: Logger;
  store?: StoreOptions;
  migrate?: boolean;
  clock?: () => number;
  /** The audit trail's actor for administrative changes (deps.actor). */
  actor?: string;
  /**
   * Refuse (SchemaNotServable) a schema older than this code needs when not migrating, instead
   * of serving it unready: `rpa serve` and `rpa worker` wait for `rpa migrate` then.
   */
  requireSchema?: boolean;
  /** How long a dependency must answer before its outage ends (create-outage-log.ts). */
  outageHoldMs?: number;
  /**
   * Whether to trace when the configuration says so (the default): off for commands that serve
   * no requests and run no workers, which would load OpenTelemetry for no span.
   */
  tracing?: boolean;
}

/**
 * The composition root shared by `rpa serve`, `rpa worker`, the other CLI commands and tests:
 * opens the database, applies migrations and resolves instance-wide keys.
 */
export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const tracing = options.tracing === false ? null : await startConfiguredTracing(config, logger);
  const tracer = tracing?.tracer;
  const redis = createRedisClient({
    url: config.redisUrl,
    sentinel: config.redisSentinel,
    commandTimeoutMs: config.redisCommandTimeoutMs,
  });
  // Handled so that no 'error' goes unheard (which would end the process); the client reconnects
  // by itself, and the outage is logged by its users once when it starts and once when it ends.
  // Counted once the metrics exist (below).
  redis?.on('error', () => {});
  const store = await openTracedStore(config, options.store, redis, tracing);
  const opened = openedResources();
  // Closed last: the spans of everything closed before it are exported.
  if (tracing) opened.add(() => tracing.shutdown());
  opened.add(() => redis?.disconnect());
  opened.add(() => store.close());
  try {
    if (options.migrate ?? config.migrateOnStart) await migrateToLatest(store.db, store.schema);
    else await checkSchema(store, logger, options.requireSchema ?? false);
    const identifierKey = await resolveIdentifierKey(store.db, config.identifierHashKey);
    const clock = options.clock ?? Date.now;
    const metrics = createMetrics({ store, clock });
    redis?.on('error', () => metrics.redisError());
    metrics.dependencyUp('database', true);
    if (redis) metrics.dependencyUp('redis', true);
    const cache = createTenancyCache({ config, store, clock, logger, redis });
    opened.add(() => cache.close());
    const deps: ServiceDeps = Object.freeze({
      config,
      store,
      clock,
      logger,
      actor: options.actor ?? 'server',
      identifierKey,
      redis,
      cache,
      privacyWork: createWorkSignal(),
      webhookWork: createWorkSignal(),
      metrics,
      tracer,
      outages: createOutageLog(logger, clock, {
        ...(options.outageHoldMs === undefined ? {} : { holdMs: options.outageHoldMs }),
        onChange: metrics.dependencyUp,
      }),
    });
    store.onConnectionLost((err) => reportDatabaseOutage(deps, err));
    const limiter = await createPasskeyLimiter(deps);
    opened.add(() => limiter.close());
    const authThrottle = await createAuthFailureThrottle(deps);
    opened.add(() => authThrottle.close());
    const passkeyUsage = createPasskeyUsage(deps);
    opened.add(() => passkeyUsage.close());
    const http: HttpDeps = Object.freeze({
      ...deps,
      tokens: createTokenVerifier(deps),
      limiter,
      authThrottle,
      passkeyUsage,
    });
    return { deps, http, close: () => opened.closeAll() };
  } catch (err) {
    // The failure to start is what the caller acts on (retryableStartFailure); a failure to
    // close what was opened meanwhile is only logged.
    await opened
      .closeAll()
      .catch((closeErr: unknown) => logger.warn({ err: closeErr }, 'closing after a failed start failed'));
    throw err;
  }
}

/**
 * OpenTelemetry when the configuration asks for it, imported only then (docs/tracing.md: an
 * untraced process loads none of it).
 */
async function startConfiguredTracing(config: Config, logger: Logger): Promise<Tracing | null> {
  if (!config.tracing) return null;
  const { startTracing } = await import('./tracing/start-tracing.js');
  return startTracing(config.tracing, logger);
}

/**
 * The configured store, timing its statements when they are traced (TRACE_STATEMENTS); tracing
 * is stopped when the store cannot be opened, since no runtime will close it then.
 */
async function openTracedStore(
  config: Config,
  options: StoreOptions | undefined,
  redis: Redis | null,
  tracing: Tracing | null,
): Promise<Store> {
  const tracer = config.tracing?.statements ? tracing?.tracer : undefined;
  return openConfiguredStore(config, { ...storeOptions(config), ...options, tracer }, redis).catch(
    async (err: unknown) => {
      await tracing?.shutdown();
      throw err;
    },
  );
}

/**
 * What the runtime opened, each closed once, the last opened first (it may use those opened
 * before it: the last passkey uses are written to the store). One that fails to close does not
 * keep the others open; its error is thrown once all are closed, or all of them together.
 */
function openedResources() {
  const closers: (() => unknown)[] = [];
  return {
    add(close: () => unknown) {
      closers.push(close);
    },
    async closeAll(): Promise<void> {
      const errors: unknown[] = [];
      for (const close of closers.splice(0).reverse()) {
        try {
          await close();
        } catch (err) {
          errors.push(err);
        }
      }
      if (errors.length === 1) throw errors[0];
      if (errors.length > 1) throw new AggregateError(errors, 'resources of the runtime failed to close');
    },
  };
}

/**
 * The database DATABASE_URL names, or a failure that says so: an operator reading `connect
 * ECONNREFUSED 127.0.0.1:1` alone has to guess which of the settings it came from.
 */
async function openConfiguredStore(
  config: Config,
  options: StoreOptions,
  redis: Redis | null = null,
): Promise<Store> {
  try {
    return await openStore(config.databaseUrl, options);
  } catch (err) {
    // Left connected, Redis would keep a process whose database failed from ever exiting.
    redis?.disconnect();
    throw new ConfigError('DATABASE_URL', describeOpenFailure(config.databaseUrl, err), { cause: err });
  }
}

function storeOptions(config: Config): StoreOptions {
  return {
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    poolSize: config.databasePool.size,
    connectionTimeoutMs: config.databasePool.timeoutMs,
    statementTimeoutMs: config.databasePool.statementTimeoutMs,
    backgroundStatementTimeoutMs: config.databasePool.backgroundStatementTimeoutMs,
  };
}

/**
 * Thrown when the database's schema is older than this code needs and migrations are left to `rpa
 * migrate`; `noTables` when it has none at all, which is a wrong DATABASE_URL more often than a
 * new installation.
 */
export class SchemaNotServable extends Error {
  constructor(
    readonly pending: readonly string[],
    readonly noTables: boolean,
  ) {
    super(`${describePendingMigrations(pending, noTables)} (MIGRATE_ON_START is false)`);
    this.name = 'SchemaNotServable';
  }
}

/**
 * Why a start failed, when a later attempt may succeed: the PostgreSQL server could not be
 * reached, or the schema waits for `rpa migrate`. Null for anything else, which ends the process:
 * a wrong setting, or a SQLite file that cannot be opened (a path, not a server that comes back).
 */
export function retryableStartFailure(config: Config, err: unknown): 'database' | 'schema' | null {
  if (err instanceof SchemaNotServable) return 'schema';
  if (parseDatabaseUrl(config.databaseUrl).dialect !== 'postgres') return null;
  const cause = err instanceof ConfigError ? err.cause : err;
  return isDatabaseUnavailable(cause) ? 'database' : null;
}

/**
 * Without migrations on start, a schema older than this code needs is refused (`required`) or
 * served unready until `rpa migrate` has run; a database with no tables at all is always refused.
 * Migrations another version applied that this one does not list are no reason to refuse.
 */
async function checkSchema(store: Store, logger: Logger, required: boolean): Promise<void> {
  const pending = await pendingMigrations(store.db, store.schema);
  if (pending.length === 0) return;
  const noTables = pending.length === Object.keys(migrations).length;
  if (required || noTables) throw new SchemaNotServable(pending, noTables);
  logger.warn(
    { pendingMigrations: pending },
    'database migrations pending: not ready until `rpa migrate` runs',
  );
}

/** Applies pending migrations to the configured database and closes it (`rpa migrate`). */
export async function migrateDatabase(config: Config): Promise<MigrationOutcome> {
  const store = await openConfiguredStore(config, storeOptions(config));
  try {
    return await migrateToLatest(store.db, store.schema);
  } finally {
    await store.close();
  }
}
