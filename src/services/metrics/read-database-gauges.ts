import type { Store } from '../../store/database.js';
import { summarizePendingWork } from '../../store/repositories/privacy-requests.js';
import { summarizePendingDeliveries } from '../../store/repositories/webhook-deliveries.js';
import type { MetricFamilies } from './create-metric-families.js';

/**
 * Brings the gauges read from the database up to date. Run before a scrape's text is written out,
 * so a database error met here is counted in the same scrape.
 */
export async function readDatabaseGauges(
  deps: { store: Store; clock: () => number },
  metrics: Pick<MetricFamilies, 'stored' | 'lag' | 'webhooksPending' | 'webhookLag' | 'databaseErrors'>,
): Promise<void> {
  try {
    const summary = await summarizePendingWork(deps.store.db);
    const now = deps.clock();
    for (const type of ['forget', 'access'] as const) {
      for (const status of ['PENDING', 'COMPLETED'] as const) {
        metrics.stored.set({ type, status }, summary.counts.get(`${type}:${status}`) ?? 0);
      }
      const oldest = summary.oldestPending.get(type);
      metrics.lag.set({ type }, oldest === undefined ? 0 : Math.max(0, (now - oldest) / 1000));
    }
    const deliveries = await summarizePendingDeliveries(deps.store.db, now);
    metrics.webhooksPending.set(deliveries.pending);
    metrics.webhookLag.set(
      deliveries.oldestDueAt === null ? 0 : Math.max(0, (now - deliveries.oldestDueAt) / 1000),
    );
  } catch {
    // Only the database is asked here. The scrape still answers with everything else, and the
    // gauges keep their last values.
    metrics.databaseErrors.inc();
  }
}
