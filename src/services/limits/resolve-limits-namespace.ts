import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ensureInstanceSetting } from '../../store/repositories/instance-settings.js';
import type { Database } from '../../store/schema.js';

const SETTING = 'limits_namespace';

/**
 * Counters belong to the database whose passkeys and clients they count: every instance on one
 * database must find the same Redis keys, and two deployments sharing a Redis (production and a
 * test copy, say) must not find each other's. A random name is generated on first start and kept
 * in the database.
 */
export async function resolveLimitsNamespace(db: Kysely<Database>): Promise<string> {
  return ensureInstanceSetting(db, SETTING, () => randomBytes(9).toString('base64url'));
}
