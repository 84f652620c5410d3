import { secondsUntil } from '../../domain/quota-policy.js';
import { AppError } from '../../errors.js';
import type { TakeOutcome } from '../../store/counters/counter-store.js';

/** The blocked scopes an instance remembers, beyond which it lets the store answer alone. */
export const MAX_KNOWN_BLOCKED = 10_000;

/** Refused until `windowEnd`: Retry-After in whole seconds, at least one. */
const tooManyFailedAttempts = (windowEnd: number, now: number) =>
  new AppError('TOO_MANY_FAILED_ATTEMPTS', {
    headers: { 'retry-after': String(Math.max(1, secondsUntil(windowEnd, now))) },
  });

/** A counter of the failure throttle, by its key, and the failures its window may hold. */
export interface Scope {
  readonly key: string;
  readonly limit: number;
}

export interface BlockedScopes {
  /** Throws TOO_MANY_FAILED_ATTEMPTS when a scope is known to have failed out. */
  screen(scopes: readonly Scope[], now: number): void;
  /**
   * Returns when the take was granted; throws TOO_MANY_FAILED_ATTEMPTS, remembering the scopes
   * that reached their limit, when not.
   */
  judge(scopes: readonly Scope[], outcome: TakeOutcome, now: number): void;
}

/**
 * The scopes of the failure throttle (docs/design.md, Token service) this instance has seen fail
 * out, until their windows end: a blocked guesser is refused before any lookup.
 */
export function createBlockedScopes(): BlockedScopes {
  const blocked = new Map<string, number>();
  let sweptAt = Number.NEGATIVE_INFINITY;

  function remember(scope: string, windowEnd: number, now: number): void {
    if (blocked.size >= MAX_KNOWN_BLOCKED) {
      // At most a sweep a second: a full map of live windows must not cost a sweep per refusal.
      if (now - sweptAt < 1000) return;
      sweptAt = now;
      for (const [key, end] of blocked) if (end <= now) blocked.delete(key);
      if (blocked.size >= MAX_KNOWN_BLOCKED) return;
    }
    blocked.set(scope, windowEnd);
  }

  return {
    screen(scopes, now) {
      let until = 0;
      for (const { key } of scopes) {
        const end = blocked.get(key);
        if (end === undefined) continue;
        if (end > now) until = Math.max(until, end);
        else blocked.delete(key);
      }
      if (until > 0) throw tooManyFailedAttempts(until, now);
    },
    judge(scopes, outcome, now) {
      if (outcome.taken) return;
      let until = now;
      scopes.forEach(({ key, limit }, i) => {
        const state = outcome.counters[i];
        if (!state || state.hits < limit) return;
        remember(key, state.windowEnd, now);
        until = Math.max(until, state.windowEnd);
      });
      throw tooManyFailedAttempts(until, now);
    },
  };
}
