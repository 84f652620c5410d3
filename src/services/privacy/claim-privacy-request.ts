import { claimPendingRequest } from '../../store/repositories/privacy-request-leases.js';
import type { PrivacyRequestRow } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';

/**
 * Leases the oldest pending request whose lease is free or expired to one worker for
 * WORKER_LEASE_MS. A worker that dies keeps it only until the lease runs out; then another
 * worker (or the same one restarted) resumes it. On SQLite, the claims of concurrent lanes share
 * commits with each other and with the API's small writes (store/group-commit.ts).
 */
export async function claimPrivacyRequest(
  deps: ServiceDeps,
  input: { owner: string },
): Promise<PrivacyRequestRow | undefined> {
  const now = deps.clock();
  return deps.store.groupCommit((trx) =>
    claimPendingRequest(trx, deps.store.dialect, {
      owner: input.owner,
      now,
      leaseUntil: now + deps.config.worker.leaseMs,
    }),
  );
}
