import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { PrivacyRequestType } from '../../domain/privacy-request.js';
import type { Store } from '../../store/database.js';
import { isDatabaseError } from '../../store/driver-errors.js';
import { summarizePendingWork } from '../../store/repositories/privacy-requests.js';
import { summarizePendingDeliveries } from '../../store/repositories/webhook-deliveries.js';
import { type CounterSeries, createSeriesCounter } from './series-counter.js';
import { type HistogramSeries, SeriesHistogram } from './series-histogram.js';

export type LimitedApi = 'auth' | 'response' | 'privacy';
export type LimitOutcome = 'allowed' | 'refused' | 'unavailable';
/** What became of one webhook delivery attempt. */
export type WebhookAttemptOutcome = 'delivered' | 'retry' | 'failed' | 'disabled';
export type ClientAuthFailure = 'malformed' | 'invalid_credentials' | 'revoked_application' | 'throttled';

/**
 * What the service tells Prometheus. Every label value comes from a short fixed list or a route
 * template: never a passkey, token, client id, application id or identifier, so a caller cannot
 * grow the series count, and a scrape reveals nothing about tenants or people.
 */
export interface Metrics {
  readonly registry: Registry;
  /** The text exposition format, with the gauges read from the database brought up to date first. */
  scrape(): Promise<string>;
  /** `route` is the route's template (`/response/v1/clientResponses/:id`), or null when none matched. */
  httpRequest(route: string | null, method: string, status: number, seconds: number): void;
  tokenIssued(): void;
  clientAuthFailed(reason: ClientAuthFailure): void;
  limitDecided(api: LimitedApi, outcome: LimitOutcome): void;
  privacyRequestCreated(type: PrivacyRequestType): void;
  privacyRequestCompleted(type: PrivacyRequestType, reviewsErased: number): void;
  webhookAttempted(outcome: WebhookAttemptOutcome): void;
  /** Counts a database error; anything else thrown is left to the caller's log. */
  failed(err: unknown): void;
  redisError(): void;
  /** Process metrics (CPU, memory, event loop, GC), for processes that expose the registry. */
  collectProcessMetrics(): void;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Seconds; a served answer takes about a millisecond, a privacy request's commit a few. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

/** A registry of its own per runtime: tests build many in one process, each counting its own. */
export function createMetrics(deps: { store: Store; clock: () => number }): Metrics {
  const registry = new Registry();
  // Read from the database at scrape time (scrape()): the state of the queue all instances share.
  const stored = new Gauge({
    name: 'rpa_privacy_requests',
    help: 'Privacy requests in the database, by type and status.',
    labelNames: ['type', 'status'] as const,
    registers: [registry],
  });
  const lag = new Gauge({
    name: 'rpa_privacy_oldest_pending_seconds',
    help: 'Age of the oldest pending privacy request of each type (0 when none is pending): the worker lag.',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  // Counted on every request: series bound once per label set (series-counter.ts).
  const requests = createSeriesCounter({
    name: 'rpa_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status class.',
    labelNames: ['route', 'method', 'status_class'] as const,
    registers: [registry],
  });
  const duration = new SeriesHistogram(
    'rpa_http_request_duration_seconds',
    'Time from the request line to the end of the answer, by route template, method and status class.',
    DURATION_BUCKETS,
    registry,
  );
  const tokens = new Counter({
    name: 'rpa_tokens_issued_total',
    help: 'Access tokens issued by the token endpoint.',
    registers: [registry],
  });
  const authFailures = new Counter({
    name: 'rpa_client_auth_failures_total',
    help: 'Failed client authentications at the token and revocation endpoints, by reason.',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const limits = createSeriesCounter({
    name: 'rpa_limit_decisions_total',
    help: 'Rate limit and quota decisions on passkey calls, by API and outcome (allowed, refused, unavailable).',
    labelNames: ['api', 'outcome'] as const,
    registers: [registry],
  });
  const created = new Counter({
    name: 'rpa_privacy_requests_created_total',
    help: 'Privacy requests accepted, by type.',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  const completed = new Counter({
    name: 'rpa_privacy_requests_completed_total',
    help: 'Privacy requests completed by this process, by type.',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  const erased = new Counter({
    name: 'rpa_privacy_reviews_erased_total',
    help: 'Reviews erased by forget requests completed in this process (rate() gives the erasure rate).',
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: 'rpa_webhook_attempts_total',
    help: 'Webhook delivery attempts made by this process, by outcome (delivered, retry, failed, disabled).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const webhooksPending = new Gauge({
    name: 'rpa_webhook_deliveries_pending',
    help: 'Webhook deliveries not yet made or given up, in the database (endpoints disabled included).',
    registers: [registry],
  });
  const webhookLag = new Gauge({
    name: 'rpa_webhook_oldest_due_seconds',
    help: 'How long the longest-waiting due delivery to an enabled endpoint has been due (0 when none).',
    registers: [registry],
  });
  const databaseErrors = new Counter({
    name: 'rpa_database_errors_total',
    help: 'Database errors met while serving requests, running the privacy worker or scraping metrics.',
    registers: [registry],
  });
  const redisErrors = new Counter({
    name: 'rpa_redis_errors_total',
    help: 'Errors reported by the Redis connection.',
    registers: [registry],
  });
  // Series per label set, bound once: a request then costs a map lookup and a few additions.
  const httpSeries = new Map<string, { count: CounterSeries; time: HistogramSeries }>();
  const limitSeries = new Map<string, CounterSeries>();
  let processMetrics = false;

  /** Before the text is written out, so a database error met here is counted in the same scrape. */
  async function readDatabaseGauges(): Promise<void> {
    try {
      const summary = await summarizePendingWork(deps.store.db);
      const now = deps.clock();
      for (const type of ['forget', 'access'] as const) {
        for (const status of ['PENDING', 'COMPLETED'] as const) {
          stored.set({ type, status }, summary.counts.get(`${type}:${status}`) ?? 0);
        }
        const oldest = summary.oldestPending.get(type);
        lag.set({ type }, oldest === undefined ? 0 : Math.max(0, (now - oldest) / 1000));
      }
      const deliveries = await summarizePendingDeliveries(deps.store.db, now);
      webhooksPending.set(deliveries.pending);
      webhookLag.set(
        deliveries.oldestDueAt === null ? 0 : Math.max(0, (now - deliveries.oldestDueAt) / 1000),
      );
    } catch {
      // Only the database is asked here. The scrape still answers with everything else, and the
      // gauges keep their last values.
      databaseErrors.inc();
    }
  }

  return {
    registry,
    async scrape() {
      await readDatabaseGauges();
      return registry.metrics();
    },
    httpRequest(route, method, status, seconds) {
      const m = METHODS.has(method) ? method : 'other';
      const key = `${route ?? ''} ${m} ${status}`;
      let series = httpSeries.get(key);
      if (!series) {
        const labels = { route: route ?? 'unmatched', method: m, status_class: statusClass(status) };
        series = { count: requests.series(labels), time: duration.series(labels) };
        httpSeries.set(key, series);
      }
      series.count.inc();
      series.time.observe(seconds);
    },
    tokenIssued: () => tokens.inc(),
    clientAuthFailed: (reason) => authFailures.inc({ reason }),
    limitDecided(api, outcome) {
      const key = `${api} ${outcome}`;
      let series = limitSeries.get(key);
      if (!series) {
        series = limits.series({ api, outcome });
        limitSeries.set(key, series);
      }
      series.inc();
    },
    privacyRequestCreated: (type) => created.inc({ type }),
    privacyRequestCompleted(type, reviewsErased) {
      completed.inc({ type });
      if (reviewsErased > 0) erased.inc(reviewsErased);
    },
    webhookAttempted: (outcome) => webhookAttempts.inc({ outcome }),
    failed(err) {
      // A refusal made because of a database error (the limiter's 503) carries it as its cause.
      if (isDatabaseError(err) || isDatabaseError((err as { cause?: unknown } | null)?.cause))
        databaseErrors.inc();
    },
    redisError: () => redisErrors.inc(),
    collectProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry, prefix: 'rpa_' });
    },
  };
}
