import type { Kysely } from 'kysely';
import type { Passkey } from '../../domain/passkey.js';
import type { Database, PasskeyRow } from '../schema.js';

function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    environment: row.environment,
    applicationId: row.application_id,
    api: row.api,
    keyHint: row.key_hint,
    ratePerMinute: row.rate_limit_per_minute,
    quotaPerDay: row.quota_per_day,
    status: row.status,
    isDefault: row.is_default === 1,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/** Stores a new passkey; `keyHash` is the only form of the key that is kept. */
export async function insertPasskey(db: Kysely<Database>, passkey: Passkey, keyHash: string): Promise<void> {
  await db
    .insertInto('passkeys')
    .values({
      id: passkey.id,
      environment: passkey.environment,
      application_id: passkey.applicationId,
      api: passkey.api,
      key_hash: keyHash,
      key_hint: passkey.keyHint,
      rate_limit_per_minute: passkey.ratePerMinute,
      quota_per_day: passkey.quotaPerDay,
      status: passkey.status,
      is_default: passkey.isDefault ? 1 : 0,
      created_at: passkey.createdAt,
      revoked_at: passkey.revokedAt,
    })
    .execute();
}

export async function findPasskeyByHash(db: Kysely<Database>, keyHash: string): Promise<Passkey | undefined> {
  const row = await db.selectFrom('passkeys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  return row && toPasskey(row);
}

export async function findPasskeyById(db: Kysely<Database>, id: string): Promise<Passkey | undefined> {
  const row = await db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toPasskey(row);
}

export async function findDefaultPasskey(
  db: Kysely<Database>,
  applicationId: string,
): Promise<Passkey | undefined> {
  const row = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('application_id', '=', applicationId)
    .where('status', '=', 'active')
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .executeTakeFirst();
  return row && toPasskey(row);
}

export async function listPasskeys(db: Kysely<Database>, applicationId?: string): Promise<Passkey[]> {
  let q = db.selectFrom('passkeys').selectAll().orderBy('created_at');
  if (applicationId) q = q.where('application_id', '=', applicationId);
  return (await q.execute()).map(toPasskey);
}

export interface PasskeyChanges {
  readonly ratePerMinute?: number;
  readonly quotaPerDay?: number;
  readonly revokedAt?: number;
}

export async function updatePasskey(
  db: Kysely<Database>,
  id: string,
  changes: PasskeyChanges,
): Promise<number> {
  const r = await db
    .updateTable('passkeys')
    .set({
      ...(changes.ratePerMinute !== undefined ? { rate_limit_per_minute: changes.ratePerMinute } : {}),
      ...(changes.quotaPerDay !== undefined ? { quota_per_day: changes.quotaPerDay } : {}),
      ...(changes.revokedAt !== undefined
        ? { status: 'revoked' as const, revoked_at: changes.revokedAt }
        : {}),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
