import { claimPendingRequests } from '../../store/repositories/privacy-request-leases.js';
import type { PrivacyRequestRow } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';

/**
 * Leases up to `limit` of the oldest pending requests whose lease is free or expired to one worker
 * for WORKER_LEASE_MS, in one statement. A worker that dies keeps them only until the lease runs
 * out; then another worker (or the same one restarted) resumes them. On SQLite, the claims of
 * concurrent lanes share commits with each other and with the API's small writes
 * (store/group-commit.ts).
 */
export async function claimPrivacyRequests(
  deps: ServiceDeps,
  input: { owner: string; limit: number },
): Promise<PrivacyRequestRow[]> {
  const now = deps.clock();
  return deps.store.groupCommit((trx) =>
    claimPendingRequests(trx, {
      owner: input.owner,
      now,
      leaseUntil: now + deps.config.worker.leaseMs,
      limit: input.limit,
    }),
  );
}

/** The oldest claimable request alone (tests and tools that process one at a time). */
export async function claimPrivacyRequest(
  deps: ServiceDeps,
  input: { owner: string },
): Promise<PrivacyRequestRow | undefined> {
  return (await claimPrivacyRequests(deps, { ...input, limit: 1 }))[0];
}
