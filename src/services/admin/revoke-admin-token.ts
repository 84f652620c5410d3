import { mentionsSecretCredential } from '../../domain/credentials.js';
import { AppError } from '../../errors.js';
import { findAdminToken, revokeAdminToken as markRevoked } from '../../store/repositories/admin-tokens.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';

/** Ends an admin token at once: its next call is refused. Revoking a revoked token is a no-op. */
export async function revokeAdminToken(deps: ServiceDeps, input: { tokenId: string }): Promise<void> {
  if (mentionsSecretCredential(input.tokenId))
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field: 'token',
      detail: 'give the id of the token (`rpa admin-tokens list`), not the token itself',
    });
  await inTransaction(deps.store.db, async (trx) => {
    const token = await findAdminToken(trx, input.tokenId);
    if (!token)
      throw new AppError('NOT_FOUND', {
        field: 'token',
        detail: `no admin token with the id ${JSON.stringify(input.tokenId.slice(0, 100))}`,
      });
    if (!(await markRevoked(trx, token.id, deps.clock()))) return;
    await recordAudit(trx, deps, {
      action: 'admin_token.revoked',
      targetType: 'admin_token',
      targetId: token.id,
      details: { name: token.name },
    });
  });
}
