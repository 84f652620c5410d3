import {
  type AccessTokenClaims,
  accessTokenSignedWith,
  parseAccessToken,
} from '../../domain/access-token.js';
import { detachedKey } from '../detached-key.js';
import { type MaybePromise, whenReady } from '../maybe-promise.js';
import type { SigningKey, SigningKeys } from './create-signing-keys.js';

/** Like the tenancy caches' bound: enough for every live token of a busy instance. */
const VERIFIED_TOKENS_MAX = 10_000;

type Remembered = { readonly claims: AccessTokenClaims; readonly key: SigningKey };

export interface VerifiedTokens {
  /**
   * A token's claims once its signature checks, or null: at once for a token checked before
   * whose key is still in memory; a token first seen is decoded and checked in a promise.
   */
  signedClaims(token: string): MaybePromise<AccessTokenClaims | null>;
  /** Stops remembering a token (it expired). */
  forget(token: string): void;
}

/**
 * Tokens whose signature this process has checked, with the key object that checked it. A
 * client presents the same token on every call until it expires; decoding it and computing its
 * HMAC was a tenth of a Response API call's CPU (bench/results/history.md, GET author). An entry
 * counts only while the signing keys are the ones it was checked against: a re-read of the keys
 * (every TOKEN_CACHE_TTL_MS, on a rotation, on a retirement) makes new key objects, and the next
 * call checks the signature again.
 */
export function createVerifiedTokens(signingKeys: SigningKeys): VerifiedTokens {
  const verified = new Map<string, Remembered>();

  function stillSigned(
    token: string,
    known: Remembered,
    key: SigningKey | null,
  ): MaybePromise<AccessTokenClaims | null> {
    if (key === known.key) return known.claims;
    verified.delete(token);
    return checkedClaims(token);
  }

  async function checkedClaims(token: string): Promise<AccessTokenClaims | null> {
    const parsed = parseAccessToken(token);
    if (!parsed) return null;
    const key = await signingKeys.find(parsed.claims.keyId);
    if (!key || !accessTokenSignedWith(parsed, key.key)) return null;
    // Oldest first when full: a Map keeps insertion order.
    if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value as string);
    // A copy: the token was cut from its request's Authorization header.
    verified.set(detachedKey(token), { claims: parsed.claims, key });
    return parsed.claims;
  }

  return {
    signedClaims(token) {
      const known = verified.get(token);
      if (!known) return checkedClaims(token);
      const key = signingKeys.find(known.claims.keyId);
      return whenReady(key, (found) => stillSigned(token, known, found));
    },
    forget(token) {
      verified.delete(token);
    },
  };
}
