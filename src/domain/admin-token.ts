import type { AdminScope } from './admin-scope.js';

/** A credential for the admin API, as stored: its value only as a SHA-256 digest (credentials.ts). */
export interface AdminToken {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly AdminScope[];
  /** The value's last characters, to tell tokens apart in a list. */
  readonly keyHint: string;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly revokedAt: number | null;
}

export type AdminTokenState = 'active' | 'expired' | 'revoked';

export function adminTokenState(token: AdminToken, now: number): AdminTokenState {
  if (token.revokedAt !== null) return 'revoked';
  if (token.expiresAt !== null && token.expiresAt <= now) return 'expired';
  return 'active';
}
