import { randomUUID } from 'node:crypto';
import { MAX_ACTIVE_SECRETS } from '../../domain/application.js';
import { generateCredential, hashCredential } from '../../domain/credentials.js';
import { AppError } from '../../errors.js';
import { insertSecret, listActiveSecrets } from '../../store/repositories/applications.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { announceTenancyChange } from './announce-tenancy-change.js';
import { requireActiveApplication } from './require-active-application.js';

/**
 * Adds a second active secret so deployments can switch over without downtime; the old one keeps
 * working until it is retired (retireApplicationSecret).
 */
export async function rotateApplicationSecret(
  deps: ServiceDeps,
  input: { applicationId: string },
): Promise<{ secretId: string; clientSecret: string }> {
  const { applicationId } = input;
  const clientSecret = generateCredential('clientSecret');
  const secretId = randomUUID();
  await inTransaction(deps.store.db, async (trx) => {
    await requireActiveApplication(trx, applicationId);
    const active = await listActiveSecrets(trx, applicationId);
    if (active.length >= MAX_ACTIVE_SECRETS) {
      throw new AppError('CONFLICT', {
        detail: `the application already has ${MAX_ACTIVE_SECRETS} active secrets; retire one first`,
      });
    }
    await insertSecret(trx, {
      id: secretId,
      applicationId: applicationId,
      secretHash: hashCredential(clientSecret),
      createdAt: deps.clock(),
    });
    await recordAudit(trx, deps, {
      action: 'application.secret_rotated',
      targetType: 'application',
      targetId: applicationId,
      details: { secretId, activeSecrets: active.length + 1 },
    });
  });
  // The token endpoint's cached credentials must learn the new secret at once.
  await announceTenancyChange(deps, { applicationId });
  return { secretId, clientSecret };
}
