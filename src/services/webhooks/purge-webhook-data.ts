import {
  deleteDeliveredMessages,
  deleteFinishedDeliveries,
} from '../../store/repositories/webhook-deliveries.js';
import { deleteExpiredWebhookSecrets } from '../../store/repositories/webhook-endpoints.js';
import type { ServiceDeps } from '../deps.js';
import { DEFAULT_PURGE_BOUNDS, type PurgeBounds, purgeInBatches } from '../purge-in-batches.js';

const DAY_MS = 86_400_000;

/**
 * Housekeeping of the outbox: deliveries that finished (delivered or given up) more than
 * WEBHOOK_RETENTION_DAYS ago, events no delivery refers to any more, and rotated-out secrets past
 * their grace period. Bounded like the privacy purge.
 */
export async function purgeWebhookData(
  deps: Pick<ServiceDeps, 'store' | 'clock' | 'config'>,
  bounds: PurgeBounds = DEFAULT_PURGE_BOUNDS,
): Promise<{ deliveries: number; messages: number; secrets: number }> {
  const now = deps.clock();
  const before = now - deps.config.webhooks.retentionDays * DAY_MS;
  const deliveries = await purgeInBatches(bounds, () =>
    deleteFinishedDeliveries(deps.store.db, before, bounds.batchSize),
  );
  const messages = await purgeInBatches(bounds, () =>
    deleteDeliveredMessages(deps.store.db, before, bounds.batchSize),
  );
  const secrets = await deleteExpiredWebhookSecrets(deps.store.db, now);
  return { deliveries, messages, secrets };
}
