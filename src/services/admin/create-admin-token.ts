import { randomUUID } from 'node:crypto';
import type { AdminScope } from '../../domain/admin-scope.js';
import type { AdminToken } from '../../domain/admin-token.js';
import { credentialHint, generateCredential, hashCredential } from '../../domain/credentials.js';
import { AppError } from '../../errors.js';
import { insertAdminToken } from '../../store/repositories/admin-tokens.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';

/** Longest lifetime a token may be given; a token without one lives until it is revoked. */
export const MAX_ADMIN_TOKEN_LIFETIME_MS = 366 * 86_400_000;

/**
 * Issues an admin token. Its value is returned once and kept only as a digest; the audit trail
 * records its id, name, scopes and expiry.
 */
export async function createAdminToken(
  deps: ServiceDeps,
  input: { name: string; scopes: readonly AdminScope[]; lifetimeMs?: number },
): Promise<{ token: AdminToken; value: string }> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100)
    throw new AppError('INVALID_PROPERTY_VALUE', { field: 'name', detail: 'a name of 1 to 100 characters' });
  if (input.scopes.length === 0)
    throw new AppError('INVALID_PROPERTY_VALUE', { field: 'scopes', detail: 'at least one scope' });
  const lifetime = input.lifetimeMs;
  if (lifetime !== undefined && !(lifetime > 0 && lifetime <= MAX_ADMIN_TOKEN_LIFETIME_MS))
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field: 'expiresIn',
      detail: 'a lifetime from one minute to 366 days, or none',
    });
  const value = generateCredential('adminToken');
  const now = deps.clock();
  const token: AdminToken = {
    id: randomUUID(),
    name,
    scopes: [...input.scopes],
    keyHint: credentialHint(value),
    createdAt: now,
    expiresAt: lifetime === undefined ? null : now + lifetime,
    revokedAt: null,
  };
  await inTransaction(deps.store.db, async (trx) => {
    await insertAdminToken(trx, token, hashCredential(value));
    await recordAudit(trx, deps, {
      action: 'admin_token.created',
      targetType: 'admin_token',
      targetId: token.id,
      details: { name: token.name, scopes: token.scopes.join(' '), expiresAt: token.expiresAt },
    });
  });
  return { token, value };
}
