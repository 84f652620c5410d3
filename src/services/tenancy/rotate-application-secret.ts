import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { MAX_ACTIVE_SECRETS } from '../../domain/application.js';
import type { AuditEntry } from '../../domain/audit-event.js';
import { generateCredential, hashCredential } from '../../domain/credentials.js';
import { AppError } from '../../errors.js';
import { insertSecret, listActiveSecrets } from '../../store/repositories/applications.js';
import type { Database } from '../../store/schema.js';
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
  const rotated = await inTransaction(deps.store.db, async (trx) => {
    const r = await addApplicationSecret(trx, { applicationId, now: deps.clock() });
    await recordAudit(trx, deps, r.audit);
    return r;
  });
  // The token endpoint's cached credentials must learn the new secret at once.
  await announceTenancyChange(deps, { applicationId });
  return { secretId: rotated.secretId, clientSecret: rotated.clientSecret };
}

/**
 * The rotation itself, in the caller's transaction (this service's, or a configuration file's
 * apply): a new active secret beside the others, refused at MAX_ACTIVE_SECRETS. Returns the secret,
 * shown only to the caller, and the audit entry the caller records; the caller announces the
 * application once committed.
 */
export async function addApplicationSecret(
  trx: Kysely<Database>,
  input: { readonly applicationId: string; readonly now: number },
): Promise<{ clientId: string; secretId: string; clientSecret: string; audit: AuditEntry }> {
  const { applicationId } = input;
  const app = await requireActiveApplication(trx, applicationId);
  const active = await listActiveSecrets(trx, applicationId);
  if (active.length >= MAX_ACTIVE_SECRETS) {
    throw new AppError('CONFLICT', {
      detail: `the application already has ${MAX_ACTIVE_SECRETS} active secrets; retire one first`,
    });
  }
  const clientSecret = generateCredential('clientSecret');
  const secretId = randomUUID();
  await insertSecret(trx, {
    id: secretId,
    applicationId,
    secretHash: hashCredential(clientSecret),
    createdAt: input.now,
  });
  return {
    clientId: app.clientId,
    secretId,
    clientSecret,
    audit: {
      action: 'application.secret_rotated',
      targetType: 'application',
      targetId: applicationId,
      details: { secretId, activeSecrets: active.length + 1 },
    },
  };
}
