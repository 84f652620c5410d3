import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * A value every instance on this database must agree on: the first to ask stores `generate()`'s
 * value (insert-if-absent, so racing instances agree on one) and everyone reads that one back.
 */
export async function ensureInstanceSetting(
  db: Kysely<Database>,
  key: string,
  generate: () => string,
): Promise<string> {
  await db
    .insertInto('instance_settings')
    .values({ key, value: generate() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return row.value;
}
