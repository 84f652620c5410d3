import type { Environment } from '../../domain/environment.js';
import {
  type PasskeyLimits,
  passkeyNameTaken,
  validatePasskeyExpiry,
  validatePasskeyLimits,
} from '../../domain/passkey.js';
import { AppError } from '../../errors.js';
import { isUniqueViolation } from '../../store/driver-errors.js';
import {
  findPasskeyListing,
  type PasskeyChanges,
  type PasskeyListing,
  updatePasskey as updatePasskeyRow,
} from '../../store/repositories/passkeys.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange } from './announce-tenancy-change.js';
import { requirePasskey } from './list-passkeys.js';

export type PasskeyUpdate = {
  passkeyId: string;
  /** When given, a passkey of another environment is not found. */
  environment?: Environment | undefined;
  revoke?: boolean | undefined;
  /** A time ahead; null removes the expiry. */
  expiresAt?: number | null | undefined;
  /** Unique among the application's unrevoked passkeys: how a configuration file names it. */
  name?: string | undefined;
} & PasskeyLimits;

/**
 * Changes a passkey's limits, expiry or name, or revokes it. Changes apply from the next request on every
 * instance. Revoking a revoked passkey keeps the time it was first revoked.
 */
export async function updatePasskey(deps: ServiceDeps, input: PasskeyUpdate): Promise<PasskeyListing> {
  const { passkeyId, environment, ...changes } = input;
  if (
    changes.ratePerMinute === undefined &&
    changes.quotaPerDay === undefined &&
    changes.expiresAt === undefined &&
    changes.name === undefined &&
    !changes.revoke
  )
    throw new AppError('INVALID_REQUEST', {
      field: 'passkey',
      detail: 'nothing to change: give a rate limit, a quota, an expiry, a name or revoke',
    });
  validatePasskeyLimits(changes);
  const now = deps.clock();
  if (changes.expiresAt !== undefined && changes.expiresAt !== null)
    validatePasskeyExpiry(changes.expiresAt, now);
  const updated = await inTransaction(deps.store.db, async (trx) => {
    const current = await requirePasskey(trx, passkeyId, environment);
    const revoke = !!changes.revoke && current.status !== 'revoked';
    const row: PasskeyChanges = {
      ...(changes.ratePerMinute !== undefined ? { ratePerMinute: changes.ratePerMinute } : {}),
      ...(changes.quotaPerDay !== undefined ? { quotaPerDay: changes.quotaPerDay } : {}),
      ...(changes.expiresAt !== undefined ? { expiresAt: changes.expiresAt } : {}),
      ...(changes.name !== undefined && changes.name !== current.name ? { name: changes.name } : {}),
      ...(revoke ? { revokedAt: now } : {}),
    };
    if (Object.keys(row).length === 0) return current;
    await updatePasskeyRow(trx, passkeyId, row).catch((err: unknown) => {
      throw isUniqueViolation(err) ? passkeyNameTaken(changes.name) : err;
    });
    await recordAudit(trx, deps, {
      action: revoke ? 'passkey.revoked' : 'passkey.updated',
      targetType: 'passkey',
      targetId: passkeyId,
      details: { applicationId: current.applicationId, ...changed(current, row) },
    });
    return (await findPasskeyListing(trx, passkeyId)) as PasskeyListing;
  });
  // Cached passkeys carry their limits, expiry and status: every instance drops them at once.
  await announceTenancyChange(deps, { passkeyId });
  return updated;
}

/** What changed, each as from and to, for the audit trail. */
function changed(
  current: PasskeyListing,
  row: PasskeyChanges,
): Record<string, { from: unknown; to: unknown }> {
  return {
    ...(row.ratePerMinute !== undefined
      ? { rateLimitPerMinute: { from: current.ratePerMinute, to: row.ratePerMinute } }
      : {}),
    ...(row.quotaPerDay !== undefined
      ? { quotaPerDay: { from: current.quotaPerDay, to: row.quotaPerDay } }
      : {}),
    ...(row.expiresAt !== undefined ? { expiresAt: { from: current.expiresAt, to: row.expiresAt } } : {}),
    ...(row.name !== undefined ? { name: { from: current.name, to: row.name } } : {}),
  };
}
