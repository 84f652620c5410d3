import { type AdminToken, type AdminTokenState, adminTokenState } from '../../domain/admin-token.js';
import { listAdminTokens as listRows } from '../../store/repositories/admin-tokens.js';
import type { ServiceDeps } from '../deps.js';

/** Every admin token with its state now; never a value (only its last characters). */
export async function listAdminTokens(
  deps: ServiceDeps,
): Promise<(AdminToken & { readonly state: AdminTokenState })[]> {
  const now = deps.clock();
  const tokens = await listRows(deps.store.db);
  return tokens.map((t) => ({ ...t, state: adminTokenState(t, now) }));
}
