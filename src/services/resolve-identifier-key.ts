import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

const SETTING = 'identifier_hash_key';

/**
 * The key of the identifier hashes must be the same for every instance and every restart, or
 * stored hashes would no longer match. Configured keys win; otherwise one is generated on first
 * start and kept in the database (insert-if-absent, so racing instances agree on one).
 */
export async function resolveIdentifierKey(db: Kysely<Database>, configured: string | null): Promise<string> {
  if (configured) return configured;
  await db
    .insertInto('instance_settings')
    .values({ key: SETTING, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', SETTING)
    .executeTakeFirstOrThrow();
  return row.value;
}
