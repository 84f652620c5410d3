import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

const SETTING = 'limits_namespace';

/**
 * Counters belong to the database whose passkeys and clients they count: every instance on one
 * database must find the same Redis keys, and two deployments sharing a Redis (production and a
 * test copy, say) must not find each other's. A random name is generated on first start and kept
 * in the database (insert-if-absent, so racing instances agree on one).
 */
export async function resolveLimitsNamespace(db: Kysely<Database>): Promise<string> {
  await db
    .insertInto('instance_settings')
    .values({ key: SETTING, value: randomBytes(9).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', SETTING)
    .executeTakeFirstOrThrow();
  return row.value;
}
