import type { Passkey } from '../store/schema.js';

/** The outcome of charging one call to a passkey's rate limit and quota (seed §8). */
export interface LimitDecision {
  readonly allowed: boolean;
  /** IETF RateLimit-Policy / RateLimit fields (and Retry-After when refused). */
  readonly headers: Readonly<Record<string, string>>;
  readonly exceeded?: 'rate' | 'quota';
  readonly retryAfterSeconds?: number;
}

export interface PasskeyLimiter {
  consume(passkey: Passkey): Promise<LimitDecision>;
  close(): Promise<void>;
}
