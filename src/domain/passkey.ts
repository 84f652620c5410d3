import { AppError } from '../errors.js';
import type { Environment } from './environment.js';

/** The API a passkey is issued for; a call is served only with a passkey of its own API. */
export type PasskeyApi = 'response' | 'privacy';
/** What is stored: a passkey is active until revoked. */
export type PasskeyStatus = 'active' | 'revoked';
/** What operators see: an active passkey past its expiry is expired (derived, never stored). */
export type PasskeyState = PasskeyStatus | 'expired';

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
  /** When it stops being accepted on its own; null for never. */
  readonly expiresAt: number | null;
  readonly revokedAt: number | null;
}

/**
 * Whether a call may be served with the passkey at `now`. Asked on every request against the
 * clock of that request (a cached passkey may expire while cached): an expired passkey is refused
 * exactly like a revoked one.
 */
export function isPasskeyUsable(passkey: Passkey, now: number): boolean {
  return passkeyState(passkey, now) === 'active';
}

/** What the admin API shows: revoked, expired at `now`, or active. */
export function passkeyState(passkey: Passkey, now: number): PasskeyState {
  if (passkey.status === 'revoked') return 'revoked';
  return passkey.expiresAt !== null && passkey.expiresAt <= now ? 'expired' : 'active';
}

/** An expiry must lie ahead: one already past would issue or leave a passkey that never works. */
export function validatePasskeyExpiry(expiresAt: number, now: number): void {
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= now)
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field: 'expiresAt',
      detail: 'expiresAt must be a time in the future',
    });
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

/** A passkey name is unique among an application's unrevoked passkeys (docs/configuration-as-code.md). */
export function passkeyNameTaken(name: string | undefined): AppError {
  return new AppError('CONFLICT', {
    field: 'name',
    detail: `the application already has a passkey named ${JSON.stringify(name)}`,
  });
}
