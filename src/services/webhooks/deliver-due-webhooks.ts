import { auditActor, newAuditEvent } from '../../domain/audit-event.js';
import { parseRetryAfter } from '../../domain/retry-after.js';
import { nextAttemptAt, WEBHOOK_MAX_ATTEMPTS } from '../../domain/webhook-retry-schedule.js';
import { signWebhook } from '../../domain/webhook-signature.js';
import { insertAuditEvents } from '../../store/repositories/audit-events.js';
import {
  type AttemptRecord,
  claimDueDeliveries,
  type DeliveryWork,
  findDeliveryWork,
  recordDeliveryAttempt,
} from '../../store/repositories/webhook-deliveries.js';
import {
  listLiveWebhookSecrets,
  setWebhookEndpointDisabled,
} from '../../store/repositories/webhook-endpoints.js';
import type { ServiceDeps } from '../deps.js';
import type { WebhookAttemptOutcome } from '../metrics/create-metrics.js';
import { type PostOutcome, postWebhook } from './post-webhook.js';

/** A claimed delivery, ready to be sent by `attempt`. */
export interface ClaimedDelivery {
  readonly work: DeliveryWork;
  readonly secrets: readonly string[];
}

/**
 * Leases up to `limit` due deliveries to this worker. The lease outlasts an attempt's timeout, so
 * a delivery is in one worker's hands at a time unless that worker dies; then it goes out again
 * once the lease has run out, under the same `webhook-id`.
 */
export async function claimWebhookDeliveries(
  deps: ServiceDeps,
  input: { owner: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const now = deps.clock();
  const claimed = await deps.store.groupCommit((trx) =>
    claimDueDeliveries(trx, {
      owner: input.owner,
      now,
      leaseUntil: now + deps.config.webhooks.timeoutMs + deps.config.worker.leaseMs,
      limit: input.limit,
    }),
  );
  if (claimed.length === 0) return [];
  const work = await findDeliveryWork(
    deps.store.db,
    claimed.map((d) => d.id),
  );
  const secrets = await listLiveWebhookSecrets(
    deps.store.db,
    work.map((w) => w.endpointId),
    now,
  );
  return work.map((w) => ({ work: w, secrets: secrets.get(w.endpointId) ?? [] }));
}

/** The attempt's POST; traced, in a CLIENT span it names as the receiver's parent (W3C Trace Context). */
async function post(
  deps: ServiceDeps,
  work: DeliveryWork,
  headers: Record<string, string>,
): Promise<PostOutcome> {
  const url = new URL(work.url);
  const call = deps.tracer?.startCall('POST', url);
  const result = await postWebhook(
    url,
    { headers: call ? { ...headers, ...call.carrier() } : headers, body: work.payload },
    { timeoutMs: deps.config.webhooks.timeoutMs, policy: deps.config.webhooks },
  );
  call?.end(result.answered ? { status: result.status } : { error: result.error });
  return result;
}

/**
 * One attempt of one delivery (Standard Webhooks, "Sending webhooks"): signed with every live
 * secret at the time of sending, and recorded. Only a 2xx answer delivers it. A 410 Gone disables
 * the endpoint (its other deliveries wait until an operator enables it again); anything else is
 * tried again on the schedule (domain/webhook-retry-schedule.ts), or later when the receiver's
 * Retry-After says so, until the last attempt fails.
 */
export async function attemptWebhookDelivery(
  deps: ServiceDeps,
  input: { owner: string; delivery: ClaimedDelivery },
): Promise<WebhookAttemptOutcome> {
  const { work, secrets } = input.delivery;
  const sentAt = deps.clock();
  const headers = {
    'webhook-id': work.messageId,
    'webhook-timestamp': String(Math.floor(sentAt / 1000)),
    'webhook-signature': signWebhook(secrets, {
      id: work.messageId,
      timestampSeconds: Math.floor(sentAt / 1000),
      body: work.payload,
    }),
  };
  const result = await post(deps, work, headers);
  const now = deps.clock();
  const attempts = work.attempts + 1;
  const base = { id: work.id, owner: input.owner, at: now, attempts, nextAttemptAt: now };
  let outcome: WebhookAttemptOutcome;
  let record: AttemptRecord;
  if (result.answered && result.status >= 200 && result.status < 300) {
    outcome = 'delivered';
    record = { ...base, status: 'delivered', lastStatus: result.status, lastError: null };
  } else if (result.answered && result.status === 410) {
    outcome = 'disabled';
    record = { ...base, status: 'failed', lastStatus: 410, lastError: 'HTTP 410: endpoint disabled' };
  } else {
    const retryAfter = result.answered ? parseRetryAfter(result.retryAfter, now) : null;
    const next = nextAttemptAt(now, attempts, retryAfter);
    outcome = next === null ? 'failed' : 'retry';
    record = {
      ...base,
      status: next === null ? 'failed' : 'pending',
      nextAttemptAt: next ?? now,
      lastStatus: result.answered ? result.status : null,
      lastError: result.answered ? `HTTP ${result.status}` : result.error,
    };
  }
  const recorded = await deps.store.groupCommit(async (trx) => {
    if (!(await recordDeliveryAttempt(trx, record))) return false;
    if (outcome === 'disabled') {
      await setWebhookEndpointDisabled(trx, work.endpointId, {
        at: now,
        reason: 'receiver answered 410 Gone',
      });
      await insertAuditEvents(trx, [
        newAuditEvent(now, auditActor.worker(input.owner), {
          action: 'webhook_endpoint.disabled',
          targetType: 'webhook_endpoint',
          targetId: work.endpointId,
          details: { reason: 'gone', messageId: work.messageId },
        }),
      ]);
    }
    return true;
  });
  deps.metrics.webhookAttempted(outcome);
  const log = {
    deliveryId: work.id,
    webhookId: work.messageId,
    endpointId: work.endpointId,
    attempt: attempts,
    of: WEBHOOK_MAX_ATTEMPTS,
    status: result.answered ? result.status : null,
    ...(result.answered ? {} : { error: result.error }),
    outcome,
    ...(recorded ? {} : { leaseLost: true }),
  };
  if (outcome === 'delivered') deps.logger.info(log, 'webhook delivered');
  else deps.logger.warn(log, 'webhook attempt failed');
  return outcome;
}
