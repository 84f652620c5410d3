import type { ServiceDeps } from '../deps.js';
import { reportDatabaseOutage } from './report-database-outage.js';

/**
 * Records a failed pass of background work. A database that cannot be reached is an outage,
 * logged when it starts and when it ends (deps.outages), not once per failed pass; anything else
 * is an error worth its own line. Database errors never carry identifier values: subjects are only
 * ever queried by their keyed hashes.
 */
export function reportFailure(
  deps: Pick<ServiceDeps, 'logger' | 'metrics' | 'outages' | 'store'>,
  err: unknown,
  message: string,
  context: Record<string, unknown> = {},
): void {
  deps.metrics.failed(err);
  if (!reportDatabaseOutage(deps, err)) deps.logger.error({ ...context, err }, message);
}
