import { hash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { secondsUntil } from '../../domain/quota-policy.js';
import { AppError } from '../../errors.js';
import {
  type CounterSpec,
  type CounterStore,
  CounterStoreUnavailable,
  type ReleaseSpec,
  type TakeOutcome,
} from '../../store/counters/counter-store.js';
import type { ServiceDeps } from '../deps.js';
import { createCounterStore } from '../limits/create-counter-store.js';
import { createOutageWarning } from '../limits/create-outage-warning.js';

/**
 * Brute-force protection for client authentication (docs/design.md, Token service): an attempt is
 * reserved before its secret is compared, and refused with 429 and Retry-After when its address,
 * or its client id from that address, has used up its attempts for the window.
 */
export interface AuthFailureThrottle {
  /** Throws AppError TOO_MANY_FAILED_ATTEMPTS (with a Retry-After header) when blocked. */
  reserve(clientId: string | null, address: string): Promise<AuthAttempt>;
  /**
   * reserve answered within this turn of the event loop, when the counters live in this process
   * and the address has room in line: the attempt, or undefined when reserve must be waited for.
   * Refuses (throws) as reserve does.
   */
  reserveHeld(clientId: string | null, address: string): AuthAttempt | undefined;
}

/**
 * One reserved attempt: it counts as a failure unless it turns out otherwise. Settle it once. Each
 * settles at once where the counters live in this process; a promise is returned only when the
 * store must be waited for.
 */
export interface AuthAttempt {
  /** The secret was wrong: the reservation stays, as the failure. */
  failed(): Promise<void> | undefined;
  /**
   * The secret was right: clears the client id's attempts from this address, in both counts (this
   * one included). Failures for other client ids, and from other addresses, stay.
   */
  succeeded(): Promise<void> | undefined;
  /** No verdict on the secret (e.g. the application was revoked, or the store failed): gives it back. */
  abandoned(): Promise<void> | undefined;
}

const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
/**
 * How long an attempt waits for attempts in progress to settle before it is refused: in line
 * behind this process's own, then asking the store again (for other instances') after pauses
 * that double from the first to the longest.
 */
const BUSY_WAIT_MS = 1000;
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 32;
const BUSY_RETRY_AFTER_SECONDS = 1;

/** Keys hold digests: client ids and addresses are caller-supplied and of any length. */
function digest(value: string): string {
  return hash('sha256', value, 'base64url').slice(0, 32);
}

/** What is counted for one address, or for one client id from one address. */
interface Scope {
  /** Failures and attempts in progress: the limited count. */
  readonly tries: string;
  /** Attempts in progress alone, to tell a scope that has failed from one that is busy. */
  readonly pending: string;
}

/**
 * Every counter of an attempt shares the address's `{group}`, so one take reserves in all at once
 * (in a Redis Cluster, on one node). The address's scope comes first.
 */
function scopesOf(clientId: string | null, address: string): Scope[] {
  const group = `{af:${digest(address)}}`;
  const scope = (name: string): Scope => ({ tries: `${group}:${name}`, pending: `${group}:${name}:pending` });
  return clientId === null ? [scope('address')] : [scope('address'), scope(`client:${digest(clientId)}`)];
}

const tooManyFailedAttempts = (retryAfterSeconds: number) =>
  new AppError('TOO_MANY_FAILED_ATTEMPTS', { headers: { 'retry-after': String(retryAfterSeconds) } });

/** An attempt waiting in line, for a place or to be refused with the attempt ahead of it. */
interface Waiter {
  /** The `tries` counters of its scopes. */
  readonly scopes: readonly string[];
  placed(): void;
  refused(retryAfterSeconds: number): void;
}

interface Line {
  active: number;
  waiting: Waiter[];
}

/**
 * This process's attempts in progress, per address: at most `capacity` at once, and the ones after
 * them wait here, in order, instead of asking the shared store again and again. The store still
 * decides; this only keeps one instance's bursts from finding its own attempts in the way. When an
 * attempt finds a scope failed out, the ones waiting for that scope are refused with it at once.
 */
class AddressLines {
  readonly #lines = new Map<string, Line>();
  constructor(readonly capacity: number) {}

  /**
   * Resolves how to leave the line, or null when no place came free within `waitMs`; rejects with
   * TOO_MANY_FAILED_ATTEMPTS when an attempt ahead found one of `scopes` failed out.
   */
  async enter(key: string, scopes: readonly string[], waitMs: number): Promise<(() => void) | null> {
    const leave = this.tryEnter(key);
    if (leave) return leave;
    const line = this.#lines.get(key) as Line;
    const placed = await new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => {
        line.waiting = line.waiting.filter((w) => w !== waiter);
        resolve(false);
      }, waitMs);
      const waiter: Waiter = {
        scopes,
        placed() {
          clearTimeout(timer);
          resolve(true);
        },
        refused(retryAfterSeconds) {
          clearTimeout(timer);
          reject(tooManyFailedAttempts(retryAfterSeconds));
        },
      };
      line.waiting.push(waiter);
    });
    return placed ? this.#leave(key, line) : null;
  }

  /** A place in the line of `key` when one is free now (how to leave it), otherwise null. */
  tryEnter(key: string): (() => void) | null {
    const line = this.#lines.get(key) ?? { active: 0, waiting: [] };
    this.#lines.set(key, line);
    if (line.active >= this.capacity) return null;
    line.active += 1;
    return this.#leave(key, line);
  }

  /** Refuses every attempt waiting in the line of `key` for `scope`, which has failed out. */
  refuseWaiting(key: string, scope: string, retryAfterSeconds: number): void {
    const line = this.#lines.get(key);
    if (!line) return;
    const refused = line.waiting.filter((w) => w.scopes.includes(scope));
    line.waiting = line.waiting.filter((w) => !w.scopes.includes(scope));
    for (const waiter of refused) waiter.refused(retryAfterSeconds);
  }

  #leave(key: string, line: Line): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = line.waiting.shift();
      // The place passes to the next in line; the last one out removes the line.
      if (next) next.placed();
      else if (--line.active === 0) this.#lines.delete(key);
    };
  }
}

const UNCOUNTED: AuthAttempt = {
  failed: () => undefined,
  succeeded: () => undefined,
  abandoned: () => undefined,
};

/**
 * Brute-force protection of client authentication (docs/design.md, Token service; CWE-307):
 * AUTH_FAILURE_LIMIT attempts per source address, and per client id from one source address,
 * within AUTH_FAILURE_WINDOW_SECONDS of the first; then 429 and Retry-After until that window
 * ends. A client id is never blocked as such, so nobody can lock a client out by guessing its
 * secret from elsewhere; guesses spread over many addresses are bounded by the secrets' 256 bits,
 * not by this throttle, which keeps guessing out of logs and CPU.
 *
 * Each attempt is reserved with the counter store's all-or-nothing take before its secret is
 * compared, and a failure simply keeps its reservation: however many arrive at once, at most
 * AUTH_FAILURE_LIMIT secrets are compared per window. Attempts in progress hold a reservation too,
 * so an attempt that finds the limit reached by them rather than by failures waits (up to
 * BUSY_WAIT_MS) for them to settle: a burst of right secrets from one address is served, a burst
 * of wrong ones is refused as soon as its first failures are counted. Counters live with the
 * passkey limits' (Redis or the embedded store), so every instance sees every attempt.
 */
export async function createAuthFailureThrottle(deps: ServiceDeps): Promise<AuthFailureThrottle> {
  const counters: CounterStore = await createCounterStore(deps, { inProcess: true, housekeeping: true });
  const warnOutage = createOutageWarning(deps.logger, deps.clock, 'client authentication throttle');
  const { authFailureLimit: limit, authFailureWindowSeconds: windowSeconds, rateLimitFailMode } = deps.config;
  const lines = new AddressLines(limit);

  /** What a take asks of the store: a reservation in every counter of the scopes, or none. */
  function specsOf(scopes: readonly Scope[], now: number): CounterSpec[] {
    const freshWindowEnd = now + windowSeconds * 1000;
    return [
      ...scopes.map((s) => ({ key: s.tries, limit, freshWindowEnd })),
      ...scopes.map((s) => ({ key: s.pending, limit: null, freshWindowEnd })),
    ];
  }

  /** One reservation in every counter of the scopes, or none; null when the store is down and fails open. */
  async function take(scopes: readonly Scope[], now: number): Promise<TakeOutcome | null> {
    try {
      return await counters.take(specsOf(scopes, now), now);
    } catch (err) {
      if (!(err instanceof CounterStoreUnavailable)) throw err;
      warnOutage(err, rateLimitFailMode);
      if (rateLimitFailMode === 'open') return null;
      throw new AppError('SERVICE_UNAVAILABLE', {
        detail: 'client authentication cannot be checked right now',
        headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
      });
    }
  }

  /**
   * After a take that was not granted: throws TOO_MANY_FAILED_ATTEMPTS, and refuses those waiting
   * behind, when a scope has failed out; returns when attempts in progress fill it (worth waiting).
   */
  function refuseIfFailedOut(scopes: readonly Scope[], outcome: TakeOutcome, now: number): void {
    const failedOut = scopes.flatMap((scope, i) => {
      const tries = outcome.counters[i];
      const pending = outcome.counters[scopes.length + i];
      return tries && pending && tries.hits - pending.hits >= limit ? [{ scope, tries }] : [];
    });
    if (failedOut.length === 0) return;
    const [address] = scopes as [Scope];
    const seconds = failedOut.map((f) => {
      const until = Math.max(1, secondsUntil(f.tries.windowEnd, now));
      lines.refuseWaiting(address.tries, f.scope.tries, until);
      return until;
    });
    throw tooManyFailedAttempts(Math.max(...seconds));
  }

  /** Giving back is best effort: the attempt has been answered on its merits already. */
  async function releaseLater(spec: ReleaseSpec): Promise<void> {
    try {
      await counters.release(spec, deps.clock());
    } catch (err) {
      if (!(err instanceof CounterStoreUnavailable)) throw err;
      warnOutage(err, rateLimitFailMode);
    }
  }

  /** Gives back at once where the counters live in this process, otherwise returns the wait. */
  function release(spec: ReleaseSpec): Promise<void> | undefined {
    if (!counters.immediate) return releaseLater(spec);
    counters.immediate.release(spec, deps.clock());
    return undefined;
  }

  function attemptIn(scopes: readonly Scope[], leaveLine: () => void): AuthAttempt {
    let settled = false;
    const settle = (spec: ReleaseSpec) => () => {
      if (settled) return undefined;
      settled = true;
      // The line is left as soon as the release is sent: the store applies it before any take sent
      // after it (in this process at once, one connection to Redis), so the next in line finds this
      // attempt gone. Where it may not (PostgreSQL), that one waits in the store a moment.
      try {
        return release(spec);
      } finally {
        leaveLine();
      }
    };
    const [address, pair] = scopes as [Scope, Scope | undefined];
    const inProgress = scopes.map((s) => ({ key: s.pending, cost: 1 }));
    return {
      failed: settle({ counters: inProgress }),
      // The client id's tries from this address are this attempt and its failures (or other
      // attempts) there: the address gives them back too.
      succeeded: settle(
        pair
          ? { counters: inProgress, drain: { key: pair.tries, alsoFrom: [address.tries] } }
          : { counters: [...inProgress, { key: address.tries, cost: 1 }] },
      ),
      abandoned: settle({ counters: [...inProgress, ...scopes.map((s) => ({ key: s.tries, cost: 1 }))] }),
    };
  }

  /** Reserves in the shared store, waiting (until `deadline`) while attempts in progress fill a scope. */
  async function reserveIn(scopes: readonly Scope[], deadline: number): Promise<TakeOutcome | null> {
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(2 * pause, LONGEST_PAUSE_MS)) {
      const now = deps.clock();
      const outcome = await take(scopes, now);
      if (!outcome || outcome.taken) return outcome;
      refuseIfFailedOut(scopes, outcome, now);
      if (performance.now() >= deadline) throw tooManyFailedAttempts(BUSY_RETRY_AFTER_SECONDS);
      await sleep(pause);
    }
  }

  return {
    async reserve(clientId, address) {
      const scopes = scopesOf(clientId, address);
      const [addressScope] = scopes as [Scope];
      const deadline = performance.now() + BUSY_WAIT_MS;
      const leaveLine = await lines.enter(
        addressScope.tries,
        scopes.map((s) => s.tries),
        BUSY_WAIT_MS,
      );
      if (!leaveLine) throw tooManyFailedAttempts(BUSY_RETRY_AFTER_SECONDS);
      let outcome: TakeOutcome | null;
      try {
        outcome = await reserveIn(scopes, deadline);
      } catch (err) {
        leaveLine();
        throw err;
      }
      if (outcome) return attemptIn(scopes, leaveLine);
      leaveLine();
      return UNCOUNTED;
    },

    reserveHeld(clientId, address) {
      const immediate = counters.immediate;
      if (!immediate) return undefined;
      const scopes = scopesOf(clientId, address);
      const leaveLine = lines.tryEnter((scopes[0] as Scope).tries);
      if (!leaveLine) return undefined;
      const now = deps.clock();
      try {
        const outcome = immediate.take(specsOf(scopes, now), now);
        if (outcome.taken) return attemptIn(scopes, leaveLine);
        refuseIfFailedOut(scopes, outcome, now);
      } catch (err) {
        leaveLine();
        throw err;
      }
      // Busy with attempts in progress: reserve waits for them to settle.
      leaveLine();
      return undefined;
    },
  };
}
