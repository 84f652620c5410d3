import { hash } from 'node:crypto';
import { AppError, DEPENDENCY_RETRY_AFTER_SECONDS } from '../../errors.js';
import {
  type CounterSpec,
  type CounterStore,
  CounterStoreUnavailable,
  type ReleaseSpec,
} from '../../store/counters/counter-store.js';
import type { ServiceDeps } from '../deps.js';
import { detachedKey } from '../detached-key.js';
import { createCounterStore } from '../limits/create-counter-store.js';
import type { MaybePromise } from '../maybe-promise.js';
import { createBlockedScopes, type Scope } from './blocked-scopes.js';

/**
 * Where credentials are presented, each counted apart: the token and revocation endpoints (a
 * client id and secret) and the admin listener (an admin token). Failures at one never refuse the
 * other.
 */
export type AuthListener = 'token' | 'admin';

/**
 * Brute-force protection for client and admin authentication (docs/design.md, Token service): the
 * verdict on a presented credential is answered only while its address, and the credential from
 * that address, have failures left in the window at that listener; otherwise 429 with
 * Retry-After, whatever the verdict was.
 */
export interface AuthFailureThrottle {
  /**
   * Starts an attempt, before its credentials are looked up: `credential` names what is being
   * tried (a client id, or the admin token itself). Throws TOO_MANY_FAILED_ATTEMPTS (with a
   * Retry-After header) at once when this instance has already seen the address, or the credential
   * from it, fail out at this listener in a window that has not ended: a blocked guesser costs no
   * lookup.
   */
  attempt(listener: AuthListener, credential: string, address: string): AuthAttempt;
  /** Stops the counters' housekeeping; the counters' connections are their owners' to close. */
  close(): Promise<void>;
}

/**
 * What an attempt's secret turned out to be. Each may be refused (TOO_MANY_FAILED_ATTEMPTS, or
 * SERVICE_UNAVAILABLE when the counters cannot be reached and RATE_LIMIT_FAIL_MODE is closed):
 * thrown at once where the counters live in this process, otherwise the returned promise rejects.
 * Nothing is returned when the verdict is settled already. Settle an attempt once.
 */
export interface AuthAttempt {
  /** The secret was wrong: counted as a failure, or refused when no failure is left. */
  failed(): MaybePromise<void>;
  /**
   * The secret was right: refused when no failure is left, otherwise clears the credential's
   * failures from this address, in both counts. Failures for other credentials, and from other
   * addresses, stay.
   */
  succeeded(): MaybePromise<void>;
  /** The secret was right and the client is refused anyway (a revoked application): refused as succeeded is, clearing nothing. */
  unauthorized(): MaybePromise<void>;
}

/** Keys hold digests: credentials and addresses are caller-supplied and of any length. */
function digest(value: string): string {
  return hash('sha256', value, 'base64url').slice(0, 32);
}

/** Digests remembered, and the longest value remembered: any client id or address is shorter. */
const MAX_REMEMBERED_DIGESTS = 10_000;
const MAX_REMEMBERED_CHARS = 128;

/**
 * digest(), remembered for the values seen lately. A digest is a native call that cost 1 to 2 µs
 * inside the server, twice per token request, for the same address and client id almost every
 * time. Long values are not remembered, the memory is emptied when full, and it keeps copies
 * (detachedKey), not the request text the values were cut from: what a caller sends bounds what
 * it holds.
 */
function rememberedDigests(): (value: string) => string {
  const known = new Map<string, string>();
  return (value) => {
    let found = known.get(value);
    if (found !== undefined) return found;
    found = digest(value);
    if (value.length <= MAX_REMEMBERED_CHARS) {
      if (known.size >= MAX_REMEMBERED_DIGESTS) known.clear();
      known.set(detachedKey(value), found);
    }
    return found;
  };
}

/**
 * The counters of an attempt: its address's at its listener, then its credential's from that
 * address. They share the `{group}` of the listener and address, so one take settles both at once
 * (in a Redis Cluster, on one node).
 */
function scopesOf(
  limits: { readonly address: number; readonly credential: number },
  listener: AuthListener,
  addressDigest: string,
  credentialDigest: string,
): [Scope, Scope] {
  const group = `{af:${listener}:${addressDigest}}`;
  return [
    { key: `${group}:address`, limit: limits.address },
    { key: `${group}:credential:${credentialDigest}`, limit: limits.credential },
  ];
}

/**
 * Brute-force protection of client and admin authentication (docs/design.md, Token service;
 * CWE-307), counted per listener: AUTH_FAILURE_LIMIT failures per credential from one source
 * address, and AUTH_FAILURE_ADDRESS_LIMIT per source address whatever the credentials, within
 * AUTH_FAILURE_WINDOW_SECONDS of the first; then 429 and Retry-After until that window ends. A
 * credential is never blocked as such, so nobody can lock a client out by guessing its secret
 * from elsewhere; nor does one credential failing fill its address's count beyond its own limit,
 * since a take refused adds to neither, so callers sharing an address (a NAT) are refused
 * together only once several credentials, or many guesses, failed there. Guesses spread over many
 * addresses are bounded by the secrets' 256 bits, not by this throttle, which keeps guessing out
 * of logs and CPU.
 *
 * Every verdict is one all-or-nothing take in the counters (Redis, or the embedded store), which
 * needs room for one more failure in both scopes: a wrong secret keeps the hit as its failure, a
 * right one gives it back in the same step and clears its credential's failures from the address.
 * The store orders all takes of one address, so however many arrive at once, across instances, at
 * most AUTH_FAILURE_LIMIT wrong secrets for a credential are answered as such per window, and a
 * right secret is answered only while fewer failures than that are counted before it. A refusal
 * is the same take refused, whatever the secret, so its answer tells nothing about it. Only the
 * release a take carries for the case it is granted differs with the verdict: with Redis a few
 * more arguments to the script, under a microsecond of its time, where a network round trip
 * varies by far more.
 */
export async function createAuthFailureThrottle(deps: ServiceDeps): Promise<AuthFailureThrottle> {
  const counters: CounterStore = await createCounterStore(deps, { inProcess: true, housekeeping: true });
  const { outages } = deps;
  const { authFailureWindowSeconds: windowSeconds, rateLimitFailMode } = deps.config;
  const limits = { address: deps.config.authFailureAddressLimit, credential: deps.config.authFailureLimit };
  const blocked = createBlockedScopes();
  const digestOf = rememberedDigests();

  /** A store outage: refused (503) when the fail mode is closed, let through when open. */
  function unavailable(err: unknown): void {
    if (!(err instanceof CounterStoreUnavailable)) throw err;
    outages.down('redis', err);
    if (rateLimitFailMode === 'open') return;
    throw new AppError('SERVICE_UNAVAILABLE', {
      detail: 'client authentication cannot be checked right now',
      headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
    });
  }

  /** One take of a failure's room in every scope, then `then` when granted. */
  function settle(scopes: readonly Scope[], then?: ReleaseSpec): MaybePromise<void> {
    const now = deps.clock();
    const specs: CounterSpec[] = scopes.map(({ key, limit }) => ({
      key,
      limit,
      freshWindowEnd: now + windowSeconds * 1000,
    }));
    if (counters.immediate) {
      blocked.judge(scopes, counters.immediate.take(specs, now, 1, then), now);
      return;
    }
    return counters.take(specs, now, 1, then).then((outcome) => {
      outages.up('redis');
      blocked.judge(scopes, outcome, now);
    }, unavailable);
  }

  return {
    attempt(listener, credential, address) {
      // An admin token is a secret: hashed for this attempt alone, never kept in memory after it.
      const credentialDigest = listener === 'admin' ? digest(credential) : digestOf(credential);
      const scopes = scopesOf(limits, listener, digestOf(address), credentialDigest);
      blocked.screen(scopes, deps.clock());
      const [own, pair] = scopes;
      let settled = false;
      const once = (then?: ReleaseSpec) => () => {
        if (settled) throw new Error('an authentication attempt is settled once');
        settled = true;
        return settle(scopes, then);
      };
      return {
        failed: once(),
        // The credential's hits from this address are its failures there: the address gives them
        // back too, this attempt's hit included.
        succeeded: once({ counters: [], drain: { key: pair.key, alsoFrom: [own.key] } }),
        unauthorized: once({ counters: scopes.map(({ key }) => ({ key, cost: 1 })) }),
      };
    },
    close: () => counters.close(),
  };
}
