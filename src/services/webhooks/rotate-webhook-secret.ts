import { randomUUID } from 'node:crypto';
import { newWebhookSecret } from '../../domain/webhook-signature.js';
import { expireWebhookSecrets, insertWebhookSecret } from '../../store/repositories/webhook-endpoints.js';
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
  const secret = newWebhookSecret();
  const secretId = randomUUID();
  const now = deps.clock();
  const previousExpiresAt = now + (input.graceMs ?? DEFAULT_SECRET_GRACE_MS);
  await inTransaction(deps.store.db, async (trx) => {
    const endpoint = await requireWebhookEndpoint(trx, input, now);
    await insertWebhookSecret(trx, {
      id: secretId,
      endpoint_id: endpoint.id,
      secret,
      created_at: now,
      expires_at: null,
    });
    await expireWebhookSecrets(trx, endpoint.id, { secretId, expiresAt: previousExpiresAt });
    await recordAudit(trx, deps, {
      action: 'webhook_endpoint.secret_rotated',
      targetType: 'webhook_endpoint',
      targetId: endpoint.id,
      details: { applicationId: endpoint.application_id, secretId, previousExpiresAt },
    });
  });
  return { secret, previousExpiresAt };
}
