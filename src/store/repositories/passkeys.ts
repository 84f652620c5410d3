import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Environment } from '../../domain/environment.js';
import type { PagePosition } from '../../domain/page-cursor.js';
import type { Passkey } from '../../domain/passkey.js';
import { chunks } from '../chunks.js';
import { IDS_PER_STATEMENT, insertChunked } from '../insert-chunked.js';
import { afterPosition } from '../keyset-page.js';
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
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

/**
 * A passkey as listed for operators: with when it was last used and its name, which the hot path
 * never reads.
 */
export type PasskeyListing = Passkey & { readonly lastUsedAt: number | null; readonly name: string | null };

const toListing = (row: PasskeyRow): PasskeyListing => ({
  ...toPasskey(row),
  lastUsedAt: row.last_used_at,
  name: row.name,
});

/** Stores a new passkey; `keyHash` is the only form of the key that is kept. */
export async function insertPasskey(
  db: Kysely<Database>,
  passkey: Passkey & { readonly name?: string | null },
  keyHash: string,
): Promise<void> {
  await insertPasskeys(db, [{ ...passkey, keyHash }]);
}

/** A passkey to store: `keyHash` is the only form of its key that is kept. */
export type NewPasskey = Passkey & {
  readonly keyHash: string;
  readonly name?: string | null;
  /** The stack of the configuration file that names it. */
  readonly managedBy?: string | null;
};

/** Stores new passkeys, many a statement. */
export async function insertPasskeys(db: Kysely<Database>, passkeys: readonly NewPasskey[]): Promise<void> {
  await insertChunked(
    db,
    'passkeys',
    passkeys.map((p) => ({
      id: p.id,
      environment: p.environment,
      application_id: p.applicationId,
      api: p.api,
      key_hash: p.keyHash,
      key_hint: p.keyHint,
      rate_limit_per_minute: p.ratePerMinute,
      quota_per_day: p.quotaPerDay,
      status: p.status,
      is_default: p.isDefault ? 1 : 0,
      created_at: p.createdAt,
      expires_at: p.expiresAt,
      revoked_at: p.revokedAt,
      name: p.name ?? null,
      ...(p.managedBy === undefined ? {} : { managed_by: p.managedBy }),
    })),
  );
}

export async function findPasskeyByHash(db: Kysely<Database>, keyHash: string): Promise<Passkey | undefined> {
  const row = await db.selectFrom('passkeys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  return row && toPasskey(row);
}

export async function findPasskeyListing(
  db: Kysely<Database>,
  id: string,
): Promise<PasskeyListing | undefined> {
  const row = await db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toListing(row);
}

/**
 * A passkey that can be used at `now`: active and unexpired. An application's first one becomes its
 * default, and token calls naming none are charged to it (services/tenancy/create-passkey.ts).
 */
const usableAt = (now: number) => (eb: ExpressionBuilder<Database, 'passkeys'>) =>
  eb.and([eb('status', '=', 'active'), eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)])]);

/**
 * The passkey token calls naming none are charged to: the default one while it is usable at
 * `now`, else the oldest usable one.
 */
export async function findDefaultPasskey(
  db: Kysely<Database>,
  applicationId: string,
  now: number,
): Promise<Passkey | undefined> {
  const row = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('application_id', '=', applicationId)
    .where(usableAt(now))
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .executeTakeFirst();
  return row && toPasskey(row);
}

/** The applications of `ids` that have a usable passkey at `now`: a new one of theirs is no default. */
export async function applicationsWithUsablePasskeys(
  db: Kysely<Database>,
  ids: readonly string[],
  now: number,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks(ids, IDS_PER_STATEMENT)) {
    const rows = await db
      .selectFrom('passkeys')
      .select('application_id')
      .distinct()
      .where('application_id', 'in', part)
      .where(usableAt(now))
      .execute();
    for (const r of rows) found.add(r.application_id);
  }
  return found;
}

/** One environment's passkeys (one application's when named) in (created_at, id) order. */
export async function pagePasskeys(
  db: Kysely<Database>,
  filter: { readonly environment: Environment; readonly applicationId?: string | undefined },
  after: PagePosition | null,
  limit: number,
): Promise<PasskeyListing[]> {
  let q = db.selectFrom('passkeys').selectAll().where('environment', '=', filter.environment);
  if (filter.applicationId !== undefined) q = q.where('application_id', '=', filter.applicationId);
  if (after) q = q.where(afterPosition('created_at', 'id', after));
  return (await q.orderBy('created_at').orderBy('id').limit(limit).execute()).map(toListing);
}

/** Moves each passkey's last use forward to `at`, never back (instances flush in any order). */
export async function recordPasskeyUses(
  db: Kysely<Database>,
  uses: readonly { readonly passkeyId: string; readonly at: number }[],
): Promise<void> {
  for (const use of uses)
    await db
      .updateTable('passkeys')
      .set({ last_used_at: use.at })
      .where('id', '=', use.passkeyId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', use.at)]))
      .execute();
}

export interface PasskeyChanges {
  readonly ratePerMinute?: number;
  readonly quotaPerDay?: number;
  /** Null removes the expiry. */
  readonly expiresAt?: number | null;
  readonly revokedAt?: number;
  readonly name?: string;
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
      ...(changes.expiresAt !== undefined ? { expires_at: changes.expiresAt } : {}),
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.revokedAt !== undefined
        ? { status: 'revoked' as const, revoked_at: changes.revokedAt }
        : {}),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
