import { AppError } from '../../errors.js';
import { revokeTokensOfApplication } from '../../store/repositories/access-tokens.js';
import { markApplicationRevoked } from '../../store/repositories/applications.js';
import { announceTokenRevocation } from '../auth/announce-token-revocation.js';
import type { ServiceDeps } from '../deps.js';

/** Revokes an application and every token it holds; its passkeys stop working with it. */
export async function revokeApplication(deps: ServiceDeps, input: { applicationId: string }): Promise<void> {
  const { applicationId } = input;
  await deps.store.db.transaction().execute(async (trx) => {
    const now = deps.clock();
    const changed = await markApplicationRevoked(trx, applicationId, now);
    if (changed === 0)
      throw new AppError('NOT_FOUND', { field: 'app', detail: 'no active application with that id' });
    await revokeTokensOfApplication(trx, applicationId, now);
  });
  await announceTokenRevocation(deps, { applicationId });
}
