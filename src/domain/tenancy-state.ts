import type { Environment } from './environment.js';
import type { PasskeyApi } from './passkey.js';

/**
 * What an environment holds that a configuration file can name, read at one tenancy revision:
 * clients, active applications, unrevoked passkeys and webhook endpoints, each with the stack that
 * manages it (null: none).
 */
export interface TenancyState {
  readonly environment: Environment;
  readonly revision: number;
  readonly clients: readonly ClientState[];
  readonly applications: readonly ApplicationState[];
  readonly passkeys: readonly PasskeyState[];
  readonly webhooks: readonly WebhookState[];
}

interface ClientState {
  readonly id: string;
  readonly name: string;
  readonly managedBy: string | null;
}

export interface ApplicationState {
  readonly id: string;
  readonly clientId: string;
  readonly name: string;
  readonly managedBy: string | null;
  readonly rotateLabel: string | null;
  readonly activeSecrets: number;
  /** Granted clients, by name. */
  readonly clientNames: readonly string[];
}

export interface PasskeyState {
  readonly id: string;
  readonly applicationId: string;
  readonly name: string | null;
  readonly api: PasskeyApi;
  readonly ratePerMinute: number;
  readonly quotaPerDay: number;
  readonly expiresAt: number | null;
  readonly managedBy: string | null;
}

export interface WebhookState {
  readonly id: string;
  readonly applicationId: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly managedBy: string | null;
  readonly rotateLabel: string | null;
}
