import { randomUUID } from 'node:crypto';
import { credentialHint, generateCredential, hashCredential } from '../../domain/credentials.js';
import {
  type PasskeyApi,
  type PasskeyLimits,
  passkeyNameTaken,
  validatePasskeyExpiry,
  validatePasskeyLimits,
} from '../../domain/passkey.js';
import { isUniqueViolation } from '../../store/driver-errors.js';
import { findDefaultPasskey, insertPasskey, type PasskeyListing } from '../../store/repositories/passkeys.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange } from './announce-tenancy-change.js';
import { requireActiveApplication } from './require-active-application.js';

/**
 * Issues a passkey for one API of one application, until `expiresAt` when given. The first usable
 * passkey of an application becomes its default: token calls that name no passkey are charged to
 * it (docs/interface.md §5.5).
 */
export async function createPasskey(
  deps: ServiceDeps,
  input: {
    applicationId: string;
    api: PasskeyApi;
    expiresAt?: number | undefined;
    /** Unique among the application's unrevoked passkeys. */
    name?: string | undefined;
  } & PasskeyLimits,
): Promise<{ passkey: PasskeyListing; value: string }> {
  validatePasskeyLimits(input);
  const now = deps.clock();
  if (input.expiresAt !== undefined) validatePasskeyExpiry(input.expiresAt, now);
  const value = generateCredential('passkey');
  const created = await inTransaction(deps.store.db, async (trx) => {
    const app = await requireActiveApplication(trx, input.applicationId);
    const existingDefault = await findDefaultPasskey(trx, app.id, now);
    const passkey: PasskeyListing = {
      id: randomUUID(),
      environment: app.environment,
      applicationId: app.id,
      api: input.api,
      keyHint: credentialHint(value),
      ratePerMinute: input.ratePerMinute ?? deps.config.defaultRateLimitPerMinute,
      quotaPerDay: input.quotaPerDay ?? deps.config.defaultQuotaPerDay,
      status: 'active',
      isDefault: !existingDefault,
      createdAt: now,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
      lastUsedAt: null,
      name: input.name ?? null,
    };
    try {
      await insertPasskey(trx, passkey, hashCredential(value));
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      throw passkeyNameTaken(input.name);
    }
    await recordAudit(trx, deps, {
      action: 'passkey.created',
      targetType: 'passkey',
      targetId: passkey.id,
      details: {
        applicationId: app.id,
        environment: app.environment,
        api: passkey.api,
        rateLimitPerMinute: passkey.ratePerMinute,
        quotaPerDay: passkey.quotaPerDay,
        default: passkey.isDefault,
        expiresAt: passkey.expiresAt,
        ...(passkey.name === null ? {} : { name: passkey.name }),
      },
    });
    return { passkey, value };
  });
  // The first passkey of an application becomes its default, which instances may have cached as
  // absent (token calls naming no passkey).
  await announceTenancyChange(deps, { passkeyId: created.passkey.id });
  return created;
}
