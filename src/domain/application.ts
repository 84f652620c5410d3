import type { Environment } from './environment.js';

/** Active client secrets an application may hold at once: two during a rotation. */
export const MAX_ACTIVE_SECRETS = 2;

export type ApplicationStatus = 'active' | 'revoked';

/** An OAuth client of one environment, granted a set of client instances (docs/design.md, Tenancy). */
export interface Application {
  readonly id: string;
  readonly environment: Environment;
  /** The public OAuth client_id. */
  readonly clientId: string;
  readonly name: string;
  readonly status: ApplicationStatus;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}
