import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuditEntry } from '../../domain/audit-event.js';
import { newWebhookSecret } from '../../domain/webhook-signature.js';
import { expireWebhookSecrets, insertWebhookSecret } from '../../store/repositories/webhook-endpoints.js';
import type { Database } from '../../store/schema.js';
import { inTransaction } from '../../store/transaction.js';
import { recordAudit } from '../audit/record-audit.js';
import type { ServiceDeps } from '../deps.js';
import { type EndpointRef, requireWebhookEndpoint } from './list-webhook-endpoints.js';

/** The Standard Webhooks recommendation for how long a rotated-out secret keeps signing. */
export const DEFAULT_SECRET_GRACE_MS = 24 * 3_600_000;

/**
 * Gives an endpoint a new signing secret. For `graceMs` every delivery is signed with the old and
 * the new one (two entries in `webhook-signature`), so the receiver can switch whenever it likes
 * within that time; then the old one stops signing. Returns the new secret, shown only here.
 */
export async function rotateWebhookSecret(
  deps: ServiceDeps,
  input: EndpointRef & { graceMs?: number },
): Promise<{ secret: string; previousExpiresAt: number }> {
  const now = deps.clock();
  return inTransaction(deps.store.db, async (trx) => {
    const endpoint = await requireWebhookEndpoint(trx, input, now);
    const r = await replaceWebhookSecret(trx, {
      endpointId: endpoint.id,
      applicationId: endpoint.application_id,
      now,
      ...(input.graceMs === undefined ? {} : { graceMs: input.graceMs }),
    });
    await recordAudit(trx, deps, r.audit);
    return { secret: r.secret, previousExpiresAt: r.previousExpiresAt };
  });
}

/**
 * The rotation itself, in the caller's transaction (this service's, or a configuration file's
 * apply): a new secret that signs from `now`, the others until the grace period ends. Returns the
 * secret, shown only to the caller, and the audit entry the caller records.
 */
export async function replaceWebhookSecret(
  trx: Kysely<Database>,
  input: {
    readonly endpointId: string;
    readonly applicationId: string;
    readonly now: number;
    readonly graceMs?: number;
  },
): Promise<{ secret: string; previousExpiresAt: number; audit: AuditEntry }> {
  const { endpointId, applicationId, now } = input;
  const secret = newWebhookSecret();
  const secretId = randomUUID();
  const previousExpiresAt = now + (input.graceMs ?? DEFAULT_SECRET_GRACE_MS);
  await insertWebhookSecret(trx, { id: secretId, endpointId, value: secret, createdAt: now });
  await expireWebhookSecrets(trx, endpointId, { secretId, expiresAt: previousExpiresAt });
  return {
    secret,
    previousExpiresAt,
    audit: {
      action: 'webhook_endpoint.secret_rotated',
      targetType: 'webhook_endpoint',
      targetId: endpointId,
      details: { applicationId, secretId, previousExpiresAt },
    },
  };
}
