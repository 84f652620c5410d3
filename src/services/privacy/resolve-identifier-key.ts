import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ensureInstanceSetting } from '../../store/repositories/instance-settings.js';
import type { Database } from '../../store/schema.js';

const SETTING = 'identifier_hash_key';

/**
 * The key of the identifier hashes must be the same for every instance and every restart, or
 * stored hashes would no longer match. Configured keys win; otherwise one is generated on first
 * start and kept in the database.
 */
export async function resolveIdentifierKey(db: Kysely<Database>, configured: string | null): Promise<string> {
  if (configured) return configured;
  return ensureInstanceSetting(db, SETTING, () => randomBytes(32).toString('base64url'));
}
