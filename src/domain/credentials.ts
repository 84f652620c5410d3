import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Opaque credentials: 32 random bytes (256 bits) behind a recognisable prefix, so a leaked value
 * can be found by secret scanners and told apart at a glance. Only SHA-256 digests are stored:
 * with 256 bits of entropy a slow password hash adds nothing (no dictionary to guess from).
 * Access tokens share the prefix scheme but are signed instead (access-token.ts).
 */
export const CREDENTIAL_PREFIX = {
  clientId: 'rpa_ci_',
  clientSecret: 'rpa_cs_',
  accessToken: 'rpa_at_',
  passkey: 'rpa_pk_',
} as const;

export type CredentialKind = keyof typeof CREDENTIAL_PREFIX;

// Client ids are not secret; the other three are.
const SECRET_CREDENTIAL = new RegExp(
  [CREDENTIAL_PREFIX.clientSecret, CREDENTIAL_PREFIX.accessToken, CREDENTIAL_PREFIX.passkey].join('|'),
  'i',
);

/**
 * Whether text carries a secret credential by its prefix: a caller can put one where an id belongs
 * (a path segment, a filter, X-Request-Id), and logs must not keep it there either.
 */
export function mentionsSecretCredential(text: string): boolean {
  return SECRET_CREDENTIAL.test(text);
}

export function generateCredential(kind: CredentialKind, bytes = 32): string {
  return CREDENTIAL_PREFIX[kind] + randomBytes(bytes).toString('base64url');
}

export function hashCredential(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

/** Compares a presented credential with a stored digest in time independent of where they differ. */
export function credentialMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashCredential(presented));
  const b = Buffer.from(storedHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The last characters of a credential, safe to show an operator. */
export function credentialHint(value: string): string {
  return value.slice(-4);
}
