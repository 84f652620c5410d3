import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Seconds; a served answer takes about a millisecond, a privacy request's commit a few. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Read from the database at scrape time (read-database-gauges.ts): the queue all instances share. */
function privacyQueueGauges(registry: Registry) {
  return {
    stored: new Gauge({
      name: 'rpa_privacy_requests',
      help: 'Privacy requests in the database, by type and status.',
      labelNames: ['type', 'status'] as const,
      registers: [registry],
    }),
    lag: new Gauge({
      name: 'rpa_privacy_oldest_pending_seconds',
      help: 'Age of the oldest pending privacy request of each type (0 when none is pending): the worker lag.',
      labelNames: ['type'] as const,
      registers: [registry],
    }),
  };
}

/** Counted on every request. */
function requestMetrics(registry: Registry) {
  return {
    requests: new Counter({
      name: 'rpa_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status class.',
      labelNames: ['route', 'method', 'status_class'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'rpa_http_request_duration_seconds',
      help: 'Time from the request line to the end of the answer, by route template, method and status class.',
      labelNames: ['route', 'method', 'status_class'] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    }),
    shed: new Counter({
      name: 'rpa_http_requests_shed_total',
      help: 'Calls refused with 503 before being served because the process was overloaded, by the bound passed (event_loop_delay, in_flight).',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    tokens: new Counter({
      name: 'rpa_tokens_issued_total',
      help: 'Access tokens issued by the token endpoint.',
      registers: [registry],
    }),
    authFailures: new Counter({
      name: 'rpa_client_auth_failures_total',
      help: 'Failed client authentications at the token and revocation endpoints, by reason.',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    limits: new Counter({
      name: 'rpa_limit_decisions_total',
      help: 'Rate limit and quota decisions on passkey calls, by API and outcome (allowed, refused, unavailable).',
      labelNames: ['api', 'outcome'] as const,
      registers: [registry],
    }),
  };
}

function privacyCounters(registry: Registry) {
  return {
    created: new Counter({
      name: 'rpa_privacy_requests_created_total',
      help: 'Privacy requests accepted, by type.',
      labelNames: ['type'] as const,
      registers: [registry],
    }),
    completed: new Counter({
      name: 'rpa_privacy_requests_completed_total',
      help: 'Privacy requests completed by this process, by type.',
      labelNames: ['type'] as const,
      registers: [registry],
    }),
    erased: new Counter({
      name: 'rpa_privacy_reviews_erased_total',
      help: 'Reviews erased by forget requests completed in this process (rate() gives the erasure rate).',
      registers: [registry],
    }),
  };
}

function webhookMetrics(registry: Registry) {
  return {
    webhookAttempts: new Counter({
      name: 'rpa_webhook_attempts_total',
      help: 'Webhook delivery attempts made by this process, by outcome (delivered, retry, failed, disabled).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    webhooksPending: new Gauge({
      name: 'rpa_webhook_deliveries_pending',
      help: 'Webhook deliveries not yet made or given up, in the database (endpoints disabled included).',
      registers: [registry],
    }),
    webhookLag: new Gauge({
      name: 'rpa_webhook_oldest_due_seconds',
      help: 'How long the longest-waiting due delivery to an enabled endpoint has been due (0 when none).',
      registers: [registry],
    }),
  };
}

function errorCounters(registry: Registry) {
  return {
    databaseErrors: new Counter({
      name: 'rpa_database_errors_total',
      help: 'Database errors met while serving requests, running the privacy worker or scraping metrics.',
      registers: [registry],
    }),
    redisErrors: new Counter({
      name: 'rpa_redis_errors_total',
      help: 'Errors reported by the Redis connection.',
      registers: [registry],
    }),
    dependencyUp: new Gauge({
      name: 'rpa_dependency_up',
      help: 'Whether a shared dependency serves this process (1) or is in an outage (0).',
      labelNames: ['dependency'],
      registers: [registry],
    }),
  };
}

/**
 * Every metric the service exposes, registered in `registry` in the order the exposition lists
 * them (the spreads below run in order).
 */
export function createMetricFamilies(registry: Registry) {
  return {
    ...privacyQueueGauges(registry),
    ...requestMetrics(registry),
    ...privacyCounters(registry),
    ...webhookMetrics(registry),
    ...errorCounters(registry),
  };
}

export type MetricFamilies = ReturnType<typeof createMetricFamilies>;
