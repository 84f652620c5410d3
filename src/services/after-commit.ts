import type { ServiceDeps } from './deps.js';

/**
 * Runs what a service does once its writes are visible to others: at once when the service
 * committed them itself, after the caller's commit when `deps.store.db` is the caller's
 * transaction (deps.afterCommit, set by services/idempotency).
 */
export async function afterCommit(deps: ServiceDeps, effect: () => Promise<void>): Promise<void> {
  if (deps.afterCommit) deps.afterCommit(effect);
  else await effect();
}
