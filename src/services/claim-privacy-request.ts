import { claimPendingRequest } from '../store/repositories/privacy-requests.js';
import type { PrivacyRequestRow } from '../store/schema.js';
import type { ServiceDeps } from './deps.js';

/**
 * Leases the oldest pending request whose lease is free or expired to one worker for
 * WORKER_LEASE_MS. A worker that dies keeps it only until the lease runs out; then another
 * worker (or the same one restarted) resumes it.
 */
export async function claimPrivacyRequest(
  deps: ServiceDeps,
  input: { owner: string },
): Promise<PrivacyRequestRow | undefined> {
  const now = deps.clock();
  return deps.store.db.transaction().execute((trx) =>
    claimPendingRequest(trx, deps.store.dialect, {
      owner: input.owner,
      now,
      leaseUntil: now + deps.config.worker.leaseMs,
    }),
  );
}
