import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ServiceDeps } from '../services/deps.js';
import { createRetryBackoff } from '../services/health/create-retry-backoff.js';
import { reportFailure } from '../services/health/report-failure.js';
import { createWorkSignal } from '../services/privacy/work-signal.js';
import { attemptWebhookDelivery, claimWebhookDeliveries } from '../services/webhooks/deliver-due-webhooks.js';
import { purgeWebhookData } from '../services/webhooks/purge-webhook-data.js';
import { tracedWork } from './traced-work.js';

export interface WebhookWorker {
  /** Claims nothing more and resolves once the attempts in flight have been recorded. */
  stop(): Promise<void>;
}

const HOUSEKEEPING_INTERVAL_MS = 60_000;

/**
 * Sends the outbox's due deliveries (docs/webhooks.md, Delivery): keeps up to WEBHOOK_CONCURRENCY
 * attempts in flight, so one slow receiver holds one slot, not the queue. It claims more as slots
 * free up, and otherwise waits for the in-process signal (an event was written here) or
 * WORKER_POLL_INTERVAL_MS (written by another instance, or a retry fell due). Housekeeping of
 * finished deliveries runs once a minute.
 */
export function startWebhookWorker(deps: ServiceDeps, options: { owner?: string } = {}): WebhookWorker {
  const { config, logger } = deps;
  const owner = options.owner ?? `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const signal = deps.webhookWork ?? createWorkSignal();
  const abort = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let nextHousekeepingAt = 0;

  const housekeeping = async () => {
    if (deps.clock() < nextHousekeepingAt) return;
    nextHousekeepingAt = deps.clock() + HOUSEKEEPING_INTERVAL_MS;
    const purged = await purgeWebhookData(deps);
    if (purged.deliveries > 0 || purged.messages > 0 || purged.secrets > 0)
      logger.info(purged, 'webhook data purged');
  };

  const send = (delivery: Awaited<ReturnType<typeof claimWebhookDeliveries>>[number]) => {
    const attempt: Promise<void> = tracedWork(
      deps.tracer,
      'webhook delivery',
      {
        attributes: {
          'rpa.webhook.delivery_id': delivery.work.id,
          'rpa.webhook.attempt': delivery.work.attempts + 1,
        },
        outcome: (outcome) => ({ 'rpa.webhook.outcome': outcome }),
      },
      () => attemptWebhookDelivery(deps, { owner, delivery }),
    )
      .then(() => undefined)
      .catch((err) => {
        // The lease runs out and the delivery goes out again: nothing is lost.
        reportFailure(deps, err, 'webhook attempt could not be recorded', { deliveryId: delivery.work.id });
      })
      .finally(() => {
        inFlight.delete(attempt);
        signal.notify();
      });
    inFlight.add(attempt);
  };

  const loop = async () => {
    const backoff = createRetryBackoff({ firstMs: Math.min(250, config.worker.pollIntervalMs) });
    while (!abort.signal.aborted) {
      try {
        await housekeeping();
        const free = config.webhooks.concurrency - inFlight.size;
        const claimed = free > 0 ? await claimWebhookDeliveries(deps, { owner, limit: free }) : [];
        deps.outages.up('database');
        backoff.reset();
        for (const delivery of claimed) send(delivery);
        if (claimed.length > 0 && inFlight.size < config.webhooks.concurrency) continue;
        await signal.wait(config.worker.pollIntervalMs, abort.signal);
      } catch (err) {
        // An outage is logged when it starts and ends, not on every pass; the pause grows while
        // it lasts, and the first pass that succeeds ends it.
        reportFailure(deps, err, 'webhook worker iteration failed');
        await createWorkSignal().wait(backoff.next(), abort.signal);
      }
    }
  };

  logger.info({ owner, concurrency: config.webhooks.concurrency }, 'webhook worker started');
  const running = loop();
  return {
    async stop() {
      abort.abort();
      await running;
      await Promise.all([...inFlight]);
      logger.info({ owner }, 'webhook worker stopped');
    },
  };
}
