import { AppError } from '../../errors.js';
import { listActiveSecrets, retireSecret } from '../../store/repositories/applications.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange } from './announce-tenancy-change.js';
import { requireActiveApplication } from './require-active-application.js';

/**
 * Retires the oldest active secret (or the one named) and ends the tokens obtained with it (each
 * token names its secret, and the verifier checks it is still active), so a leaked secret stops
 * granting access. The last active secret cannot be retired: that would lock
 * the application out; revoke the application instead.
 */
export async function retireApplicationSecret(
  deps: ServiceDeps,
  input: { applicationId: string; secretId?: string | undefined },
): Promise<{ retiredSecretId: string }> {
  const { applicationId, secretId } = input;
  const retired = await inTransaction(deps.store.db, async (trx) => {
    await requireActiveApplication(trx, applicationId);
    const active = await listActiveSecrets(trx, applicationId);
    if (active.length < 2) {
      throw new AppError('CONFLICT', { detail: 'the only active secret cannot be retired; rotate first' });
    }
    const target = secretId ? active.find((s) => s.id === secretId) : active[0];
    if (!target) throw new AppError('NOT_FOUND', { field: 'secret', detail: 'no such active secret' });
    const now = deps.clock();
    await retireSecret(trx, target.id, now);
    await recordAudit(trx, deps, {
      action: 'application.secret_retired',
      targetType: 'application',
      targetId: applicationId,
      details: { secretId: target.id, activeSecrets: active.length - 1 },
    });
    return { retiredSecretId: target.id };
  });
  await announceTenancyChange(deps, { applicationId });
  return retired;
}
