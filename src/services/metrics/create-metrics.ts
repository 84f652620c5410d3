import { collectDefaultMetrics, Registry } from 'prom-client';
import type { PrivacyRequestType } from '../../domain/privacy-request.js';
import type { Store } from '../../store/database.js';
import { isDatabaseError } from '../../store/driver-errors.js';
import { createMetricFamilies } from './create-metric-families.js';
import { readDatabaseGauges } from './read-database-gauges.js';

export type LimitedApi = 'auth' | 'response' | 'privacy';
type LimitOutcome = 'allowed' | 'refused' | 'unavailable';
/** What became of one webhook delivery attempt. */
export type WebhookAttemptOutcome = 'delivered' | 'retry' | 'failed' | 'disabled';
/** Why a call was refused before it was served (src/http/steps/shed-overload.ts). */
export type ShedReason = 'event_loop_delay' | 'in_flight';
type ClientAuthFailure = 'malformed' | 'invalid_credentials' | 'revoked_application' | 'throttled';

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
  /** A call refused with 503 because the process was overloaded. */
  shed(reason: ShedReason): void;
  tokenIssued(): void;
  clientAuthFailed(reason: ClientAuthFailure): void;
  limitDecided(api: LimitedApi, outcome: LimitOutcome): void;
  privacyRequestCreated(type: PrivacyRequestType): void;
  privacyRequestCompleted(type: PrivacyRequestType, reviewsErased: number): void;
  webhookAttempted(outcome: WebhookAttemptOutcome): void;
  /** Counts a database error; anything else thrown is left to the caller's log. */
  failed(err: unknown): void;
  redisError(): void;
  /** A dependency's outage started (false) or ended (true): `rpa_dependency_up`. */
  dependencyUp(dependency: 'database' | 'redis', up: boolean): void;
  /** Process metrics (CPU, memory, event loop, GC), for processes that expose the registry. */
  collectProcessMetrics(): void;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

/** A registry of its own per runtime: tests build many in one process, each counting its own. */
export function createMetrics(deps: { store: Store; clock: () => number }): Metrics {
  const registry = new Registry();
  const family = createMetricFamilies(registry);
  let processMetrics = false;

  return {
    registry,
    async scrape() {
      await readDatabaseGauges(deps, family);
      return registry.metrics();
    },
    httpRequest(route, method, status, seconds) {
      const m = METHODS.has(method) ? method : 'other';
      const labels = { route: route ?? 'unmatched', method: m, status_class: statusClass(status) };
      family.requests.inc(labels);
      family.duration.observe(labels, seconds);
    },
    shed: (reason) => family.shed.inc({ reason }),
    tokenIssued: () => family.tokens.inc(),
    clientAuthFailed: (reason) => family.authFailures.inc({ reason }),
    limitDecided: (api, outcome) => family.limits.inc({ api, outcome }),
    privacyRequestCreated: (type) => family.created.inc({ type }),
    privacyRequestCompleted(type, reviewsErased) {
      family.completed.inc({ type });
      if (reviewsErased > 0) family.erased.inc(reviewsErased);
    },
    webhookAttempted: (outcome) => family.webhookAttempts.inc({ outcome }),
    failed(err) {
      // A refusal made because of a database error (the limiter's 503) carries it as its cause.
      if (isDatabaseError(err) || isDatabaseError((err as { cause?: unknown } | null)?.cause))
        family.databaseErrors.inc();
    },
    redisError: () => family.redisErrors.inc(),
    dependencyUp: (dependency, up) => family.dependencyUp.set({ dependency }, up ? 1 : 0),
    collectProcessMetrics() {
      if (processMetrics) return;
      processMetrics = true;
      collectDefaultMetrics({ register: registry, prefix: 'rpa_' });
    },
  };
}
