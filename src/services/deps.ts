import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Tracer } from '../domain/tracer.js';
import type { Store } from '../store/database.js';
import type { OutageLog } from './health/create-outage-log.js';
import type { Metrics } from './metrics/create-metrics.js';
import type { WorkSignal } from './privacy/work-signal.js';
import type { TenancyCache } from './tenancy/create-tenancy-cache.js';

/** Milliseconds since the epoch; injected so tests can move time. */
export type Clock = () => number;

/**
 * Everything a service needs, passed explicitly. Built once by the runtime (src/runtime.ts) and
 * shared by the HTTP layer, the worker and the CLI.
 */
export interface ServiceDeps {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /**
   * Who administrative changes made through these deps are recorded as in the audit trail:
   * `cli:<user>` for the CLI, `server` otherwise (API calls name their application instead).
   */
  readonly actor: string;
  /** Key of the keyed hashes of privacy identifiers (config or generated once per database). */
  readonly identifierKey: string;
  /** Shared Redis connection when REDIS_URL is set (limits, cross-instance signals); null otherwise. */
  readonly redis: Redis | null;
  /** Tenancy data of the hot path, token signing keys and revoked tokens, held in this process. */
  readonly cache: TenancyCache;
  /** This process's Prometheus metrics (served on METRICS_PORT when set). */
  readonly metrics: Metrics;
  /** What this process knows of its dependencies' health: logs each outage's start and end. */
  readonly outages: OutageLog;
  /**
   * Spans of this process's work, exported over OTLP (docs/tracing.md); absent when tracing is not
   * configured, and then nothing of it runs.
   */
  readonly tracer?: Tracer;
  /** Wakes this process's privacy worker when a request is created; absent where none runs. */
  readonly privacyWork?: WorkSignal;
  /** Wakes this process's webhook worker when an event is written; absent where none runs. */
  readonly webhookWork?: WorkSignal;
  /**
   * Set when `store.db` is a transaction a caller commits (services/idempotency): what a service
   * does once its writes are visible to others (announce a change) is handed here to run after
   * that commit. Absent, such effects run at once, the service having committed itself.
   */
  readonly afterCommit?: (effect: () => Promise<void>) => void;
}
