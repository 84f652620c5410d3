import { AppError } from '../errors.js';
import type { Environment } from './environment.js';

/** The API a passkey is issued for; a call is served only with a passkey of its own API. */
export type PasskeyApi = 'response' | 'privacy';
export type PasskeyStatus = 'active' | 'revoked';

const PASSKEY_APIS: readonly PasskeyApi[] = ['response', 'privacy'];

export function isPasskeyApi(v: string): v is PasskeyApi {
  return (PASSKEY_APIS as readonly string[]).includes(v);
}

/**
 * An API key of one application for one API, with its own rate limit and quota
 * (docs/design.md, Tenancy). The key itself is shown once and never kept; only its hint is.
 */
export interface Passkey {
  readonly id: string;
  readonly environment: Environment;
  readonly applicationId: string;
  readonly api: PasskeyApi;
  /** Last characters of the key, so an operator can tell keys apart. */
  readonly keyHint: string;
  readonly ratePerMinute: number;
  readonly quotaPerDay: number;
  readonly status: PasskeyStatus;
  /** Charged by token calls that name no passkey (docs/interface.md §5.5). */
  readonly isDefault: boolean;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

/** A passkey's own limits; absent ones take the configured defaults (docs/design.md, Limits). */
export interface PasskeyLimits {
  ratePerMinute?: number;
  quotaPerDay?: number;
}

/** Each limit is a whole number of requests from 1; named by its CLI option in the error. */
export function validatePasskeyLimits(limits: PasskeyLimits): void {
  for (const [field, value] of [
    ['rateLimit', limits.ratePerMinute],
    ['quota', limits.quotaPerDay],
  ] as const) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1 || value > 1_000_000_000)) {
      throw new AppError('INVALID_PROPERTY_VALUE', {
        field,
        detail: `${field} must be a whole number from 1`,
      });
    }
  }
}
