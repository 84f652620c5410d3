import type { Selectable } from 'kysely';

// Row types of the admin API's credentials (conventions in ../schema.ts).

export interface AdminTokensTable {
  id: string;
  name: string;
  /** Space-separated scopes (domain/admin-scope.ts). */
  scopes: string;
  token_hash: string;
  key_hint: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

export type AdminTokenRow = Selectable<AdminTokensTable>;

export interface IdempotencyKeysTable {
  /** Whose key it is: `admin:<token id>`, or an application's API and id. */
  scope: string;
  key_hash: string;
  /** Digest of the method, path and body the key was first used with. */
  fingerprint: string;
  status: number;
  sealed_answer: string;
  created_at: number;
}
