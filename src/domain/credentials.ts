import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { SHA256_BYTES, sha256Into } from './sha256-into.js';
import { WEBHOOK_SECRET_PREFIX } from './webhook-signature.js';

/**
 * Opaque credentials: random bytes (RANDOM_BYTES, 192 to 256 bits for secrets) behind a
 * recognisable prefix, so a leaked value can be found by secret scanners and told apart at a
 * glance. Only SHA-256 digests are stored: with that much entropy a slow password hash adds
 * nothing (no dictionary to guess from).
 * Access tokens share the prefix scheme but are signed instead (access-token.ts).
 */
export const CREDENTIAL_PREFIX = {
  clientId: 'rpa_ci_',
  clientSecret: 'rpa_cs_',
  accessToken: 'rpa_at_',
  passkey: 'rpa_pk_',
  adminToken: 'rpa_adm_',
} as const;

/** Random bytes behind each prefix generateCredential writes (access tokens are signed instead). */
const RANDOM_BYTES = {
  clientId: 16,
  clientSecret: 32,
  passkey: 24,
  adminToken: 32,
} as const;

type GeneratedKind = keyof typeof RANDOM_BYTES;

// Client ids are not secret; the others are, and so are webhook signing secrets.
const SECRET_PREFIX = new RegExp(
  [
    CREDENTIAL_PREFIX.clientSecret,
    CREDENTIAL_PREFIX.accessToken,
    CREDENTIAL_PREFIX.passkey,
    CREDENTIAL_PREFIX.adminToken,
    WEBHOOK_SECRET_PREFIX,
  ].join('|'),
  'i',
);

const base64urlChars = (bytes: number) => Math.ceil((bytes * 4) / 3);

/**
 * A secret's random part without its prefix has the shape generateCredential gives it: unpadded
 * base64url (RFC 4648 §5) of 24 bytes (a passkey: 32 characters) or 32 bytes (a client secret or
 * an admin token: 43). An access token's body is at least 83: its 62 shortest bytes
 * (access-token.ts: 24 fixed, three one-byte fields, a 32-byte MAC); the server's own are ~220.
 */
const SECRET_RUN_LENGTHS = new Set([
  base64urlChars(RANDOM_BYTES.passkey),
  base64urlChars(RANDOM_BYTES.clientSecret),
]);
const ACCESS_TOKEN_BODY_MIN_CHARS = base64urlChars(24 + 3 * (1 + 1) + 32);
/**
 * A maximal run of 32 or more base64url characters. The lookbehind starts a match at a run's first
 * character only: without it a run shorter than 32 is scanned again from each of its characters,
 * and `matchAll` copies the expression on every call; the two made the scan of an author path
 * (70 characters) three times as long, most of what masking it cost.
 */
const BASE64URL_RUN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}/g;

/**
 * Whether a maximal run of base64url characters is shaped like a secret's random part: one of
 * those lengths, with both upper- and lower-case letters. The ids this server makes and shows
 * never are: UUIDs (applications, passkeys, privacy requests, response GUIDs) are 36 characters of
 * hexadecimal digits and dashes, a client id's run (`rpa_ci_` and 22 characters) is 29, a token id
 * 22; client names and review ids people type are mostly one case. Random bytes lack a case
 * rarely (2 × (38/64)^32: one passkey in 9 million), and such a one is recognised by its prefix only.
 */
function isSecretShaped(run: string): boolean {
  return (
    (SECRET_RUN_LENGTHS.has(run.length) || run.length >= ACCESS_TOKEN_BODY_MIN_CHARS) &&
    /[A-Z]/.test(run) &&
    /[a-z]/.test(run)
  );
}

/**
 * Whether text carries a secret credential, by its prefix or by the shape of its random part: a
 * caller can put one where an id belongs (a path segment, a filter, X-Request-Id), with or without
 * its prefix, and neither logs nor answers may repeat it.
 */
export function mentionsSecretCredential(text: string): boolean {
  if (SECRET_PREFIX.test(text)) return true;
  if (text.length < 32) return false;
  // One expression shared by every call: lastIndex is reset here, and nothing runs in between.
  BASE64URL_RUN.lastIndex = 0;
  for (let run = BASE64URL_RUN.exec(text); run !== null; run = BASE64URL_RUN.exec(text))
    if (isSecretShaped(run[0])) return true;
  return false;
}

export function generateCredential(kind: GeneratedKind): string {
  return CREDENTIAL_PREFIX[kind] + randomBytes(RANDOM_BYTES[kind]).toString('base64url');
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
