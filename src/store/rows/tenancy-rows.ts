import type { Selectable } from 'kysely';
import type { ApplicationStatus } from '../../domain/application.js';
import type { Environment } from '../../domain/environment.js';
import type { PasskeyApi, PasskeyStatus } from '../../domain/passkey.js';

// Row types of tenancy: client instances, applications with their secrets and grants, passkeys,
// token signing keys and denials, instance settings and the SQL limit counters (conventions in
// ../schema.ts).

export interface ClientsTable {
  id: string;
  environment: Environment;
  name: string;
  created_at: number;
  /** The stack of the configuration file that created or adopted it; null when none manages it. */
  managed_by: string | null;
}

export interface ApplicationsTable {
  id: string;
  environment: Environment;
  /** Public OAuth client_id. */
  client_id: string;
  name: string;
  status: ApplicationStatus;
  created_at: number;
  revoked_at: number | null;
  managed_by: string | null;
  /** The `rotate:` label of a configuration file: a different one rotates the client secret. */
  rotate_label: string | null;
}

export interface ApplicationSecretsTable {
  id: string;
  application_id: string;
  /** SHA-256 of the secret (256 random bits; see domain/credentials.ts). */
  secret_hash: string;
  created_at: number;
  retired_at: number | null;
}

export interface ApplicationGrantsTable {
  application_id: string;
  client_id: string;
}

export interface PasskeysTable {
  id: string;
  environment: Environment;
  application_id: string;
  api: PasskeyApi;
  /** SHA-256 of the passkey; the passkey itself is shown once. */
  key_hash: string;
  /** Last characters of the passkey, so an operator can tell keys apart. */
  key_hint: string;
  rate_limit_per_minute: number;
  quota_per_day: number;
  status: PasskeyStatus;
  /** 1 for the passkey charged by token calls that name none. */
  is_default: number;
  created_at: number;
  revoked_at: number | null;
  /** Latest use seen by an instance, written at most once a minute per passkey per instance. */
  last_used_at: number | null;
  expires_at: number | null;
  /** Unique among the application's unrevoked passkeys; null for a passkey given none. */
  name: string | null;
  managed_by: string | null;
}

export interface TokenSigningKeysTable {
  id: string;
  /** 32 random bytes, base64url: the HMAC-SHA256 key of the access tokens signed with it. */
  key_material: string;
  created_at: number;
  /** Null while the key signs; otherwise the time after which its tokens are refused. */
  retire_at: number | null;
}

/** An RFC 7009 revocation of one token, kept until the token's own expiry. */
export interface TokenDenialsTable {
  token_id: string;
  application_id: string;
  expires_at: number;
}

export interface InstanceSettingsTable {
  key: string;
  value: string;
}

/** Moved by every change of an environment's tenancy, in that change's transaction. */
export interface TenancyRevisionsTable {
  environment: Environment;
  revision: number;
}

/** Fixed-window counters of passkey limits and failed logins when no Redis is configured. */
export interface LimitCountersTable {
  key: string;
  hits: number;
  /** Epoch ms at which the window ends. */
  window_end: number;
}

export type ClientRow = Selectable<ClientsTable>;
export type ApplicationRow = Selectable<ApplicationsTable>;
export type PasskeyRow = Selectable<PasskeysTable>;
