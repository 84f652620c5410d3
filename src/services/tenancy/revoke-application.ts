import { AppError } from '../../errors.js';
import { markApplicationRevoked } from '../../store/repositories/applications.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange } from './announce-tenancy-change.js';

/**
 * Revokes an application: its tokens are refused from the next request on every instance (the
 * verifier checks the application's status), and its passkeys stop working with it.
 */
export async function revokeApplication(deps: ServiceDeps, input: { applicationId: string }): Promise<void> {
  const { applicationId } = input;
  await inTransaction(deps.store.db, async (trx) => {
    const now = deps.clock();
    const changed = await markApplicationRevoked(trx, applicationId, now);
    if (changed === 0)
      throw new AppError('NOT_FOUND', { field: 'app', detail: 'no active application with that id' });
    await recordAudit(trx, deps, {
      action: 'application.revoked',
      targetType: 'application',
      targetId: applicationId,
      details: {},
    });
  });
  await announceTenancyChange(deps, { applicationId });
}
