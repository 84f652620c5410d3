import { mentionsSecretCredential } from '../../domain/credentials.js';
import { type Passkey, type PasskeyLimits, validatePasskeyLimits } from '../../domain/passkey.js';
import { AppError } from '../../errors.js';
import { findPasskeyById, updatePasskey as updatePasskeyRow } from '../../store/repositories/passkeys.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange } from './announce-tenancy-change.js';

/** Changes a passkey's limits or revokes it. Limits apply from the next request on every instance. */
export async function updatePasskey(
  deps: ServiceDeps,
  input: { passkeyId: string; revoke?: boolean } & PasskeyLimits,
): Promise<Passkey> {
  const { passkeyId, ...changes } = input;
  if (mentionsSecretCredential(passkeyId))
    throw new AppError('INVALID_REQUEST', {
      field: 'passkey',
      detail: 'that is a passkey value, not its id; `rpa passkeys list` shows the ids',
    });
  if (changes.ratePerMinute === undefined && changes.quotaPerDay === undefined && !changes.revoke)
    throw new AppError('INVALID_REQUEST', {
      field: 'passkey',
      detail: 'nothing to change: give a rate limit, a quota or revoke',
    });
  validatePasskeyLimits(changes);
  const updated = await deps.store.db.transaction().execute(async (trx) => {
    const current = await findPasskeyById(trx, passkeyId);
    if (!current) throw new AppError('NOT_FOUND', { field: 'passkey', detail: `no passkey ${passkeyId}` });
    const now = deps.clock();
    await updatePasskeyRow(trx, passkeyId, {
      ...(changes.ratePerMinute !== undefined ? { ratePerMinute: changes.ratePerMinute } : {}),
      ...(changes.quotaPerDay !== undefined ? { quotaPerDay: changes.quotaPerDay } : {}),
      ...(changes.revoke ? { revokedAt: now } : {}),
    });
    await recordAudit(trx, deps, {
      action: changes.revoke ? 'passkey.revoked' : 'passkey.updated',
      targetType: 'passkey',
      targetId: passkeyId,
      details: {
        applicationId: current.applicationId,
        ...(changes.ratePerMinute !== undefined
          ? { rateLimitPerMinute: { from: current.ratePerMinute, to: changes.ratePerMinute } }
          : {}),
        ...(changes.quotaPerDay !== undefined
          ? { quotaPerDay: { from: current.quotaPerDay, to: changes.quotaPerDay } }
          : {}),
      },
    });
    return (await findPasskeyById(trx, passkeyId)) as Passkey;
  });
  // Cached passkeys carry their limits and status: every instance drops them at once.
  await announceTenancyChange(deps, { passkeyId });
  return updated;
}
