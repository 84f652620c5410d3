import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks' secret format: `whsec_` and the base64 of the key bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** 32 random bytes: a full HMAC-SHA256 block's worth of key (RFC 2104 §3 suggests at least L = 32). */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header (Standard Webhooks, "Signature scheme"): for each secret,
 * `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, separated by spaces. Signing with
 * every live secret lets a receiver move to a rotated secret at its own pace.
 */
export function signWebhook(
  secrets: readonly string[],
  message: { id: string; timestampSeconds: number; body: string },
): string {
  const content = `${message.id}.${message.timestampSeconds}.${message.body}`;
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
      return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
    })
    .join(' ');
}
