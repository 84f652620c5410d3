import { AppError } from '../../errors.js';
import { findPasskeyById, updatePasskey as updatePasskeyRow } from '../../store/repositories/passkeys.js';
import type { Passkey } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';
import { type PasskeyLimits, validateLimits } from './create-passkey.js';

/** Changes a passkey's limits or revokes it. Limits apply from the next request on every instance. */
export async function updatePasskey(
  deps: ServiceDeps,
  passkeyId: string,
  changes: PasskeyLimits & { revoke?: boolean },
): Promise<Passkey> {
  validateLimits(changes);
  return deps.store.db.transaction().execute(async (trx) => {
    const current = await findPasskeyById(trx, passkeyId);
    if (!current) throw new AppError('NOT_FOUND', { field: 'passkey', detail: `no passkey ${passkeyId}` });
    const now = deps.clock();
    await updatePasskeyRow(trx, passkeyId, {
      ...(changes.ratePerMinute !== undefined ? { rate_limit_per_minute: changes.ratePerMinute } : {}),
      ...(changes.quotaPerDay !== undefined ? { quota_per_day: changes.quotaPerDay } : {}),
      ...(changes.revoke ? { status: 'revoked' as const, revoked_at: now } : {}),
    });
    const updated = await findPasskeyById(trx, passkeyId);
    return updated as Passkey;
  });
}
