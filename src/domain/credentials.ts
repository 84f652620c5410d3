import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { SHA256_BYTES, sha256Into } from './sha256-into.js';
import { WEBHOOK_SECRET_PREFIX } from './webhook-signature.js';

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
  adminToken: 'rpa_adm_',
} as const;

export type CredentialKind = keyof typeof CREDENTIAL_PREFIX;

// Client ids are not secret; the others are, and so are webhook signing secrets.
const SECRET_CREDENTIAL = new RegExp(
  [
    CREDENTIAL_PREFIX.clientSecret,
    CREDENTIAL_PREFIX.accessToken,
    CREDENTIAL_PREFIX.passkey,
    CREDENTIAL_PREFIX.adminToken,
    WEBHOOK_SECRET_PREFIX,
  ].join('|'),
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

/** SHA-256, base64url. One-shot `hash` (Node ≥ 20.12) costs a third of a Hash object per call. */
export function hashCredential(value: string): string {
  return hash('sha256', value, 'base64url');
}

/**
 * A presented credential's SHA-256 digest as bytes, to compare with stored ones: hashed once
 * however many digests it is compared with.
 */
export function presentedCredential(value: string): Buffer {
  // A buffer cut from Node's pool, not one the native side makes per digest (sha256-into.ts).
  const digest = Buffer.allocUnsafe(SHA256_BYTES);
  sha256Into(value, digest, 0);
  return digest;
}

/** A stored digest (hashCredential's base64url) as bytes, decoded once where it is kept. */
export function storedCredentialDigest(storedHash: string): Buffer {
  return Buffer.from(storedHash, 'base64url');
}

/** Compares a presented credential's digest with a stored one in time independent of where they differ. */
export function credentialMatches(presented: Buffer, stored: Buffer): boolean {
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** The last characters of a credential, safe to show an operator. */
export function credentialHint(value: string): string {
  return value.slice(-4);
}
