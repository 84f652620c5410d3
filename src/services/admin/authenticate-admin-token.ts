import type { AdminScope } from '../../domain/admin-scope.js';
import { type AdminToken, adminTokenState } from '../../domain/admin-token.js';
import { CREDENTIAL_PREFIX, hashCredential } from '../../domain/credentials.js';
import { AppError } from '../../errors.js';
import { findAdminTokenByHash } from '../../store/repositories/admin-tokens.js';
import type { ServiceDeps } from '../deps.js';

/**
 * The admin token a Bearer credential names, if it is active and holds `scope`. An unknown,
 * revoked or expired token is one answer, INVALID_TOKEN (RFC 6750 §3.1), so a caller learns nothing
 * of which tokens exist; a valid token without the scope is INSUFFICIENT_SCOPE, naming the scope.
 */
export async function authenticateAdminToken(
  deps: ServiceDeps,
  input: { value: string; scope: AdminScope },
): Promise<AdminToken> {
  const token = input.value.startsWith(CREDENTIAL_PREFIX.adminToken)
    ? await findAdminTokenByHash(deps.store.db, hashCredential(input.value))
    : undefined;
  if (!token || adminTokenState(token, deps.clock()) !== 'active') throw new AppError('INVALID_TOKEN');
  if (!token.scopes.includes(input.scope))
    throw new AppError('INSUFFICIENT_SCOPE', { detail: `this call needs the scope ${input.scope}` });
  return token;
}
