import type { Kysely } from 'kysely';
import type { AdminScope } from '../../domain/admin-scope.js';
import type { AdminToken } from '../../domain/admin-token.js';
import type { AdminTokenRow, Database } from '../schema.js';

function toAdminToken(row: AdminTokenRow): AdminToken {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes.split(' ').filter(Boolean) as AdminScope[],
    keyHint: row.key_hint,
    createdAt: Number(row.created_at),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

export async function insertAdminToken(
  db: Kysely<Database>,
  token: AdminToken,
  tokenHash: string,
): Promise<void> {
  await db
    .insertInto('admin_tokens')
    .values({
      id: token.id,
      name: token.name,
      scopes: token.scopes.join(' '),
      token_hash: tokenHash,
      key_hint: token.keyHint,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
      revoked_at: token.revokedAt,
    })
    .execute();
}

/** Every admin token, oldest first: revoked and expired ones too, so an operator sees what ended. */
export async function listAdminTokens(db: Kysely<Database>): Promise<AdminToken[]> {
  const rows = await db.selectFrom('admin_tokens').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map(toAdminToken);
}

export async function findAdminToken(db: Kysely<Database>, id: string): Promise<AdminToken | undefined> {
  const row = await db.selectFrom('admin_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toAdminToken(row);
}

export async function findAdminTokenByHash(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<AdminToken | undefined> {
  const row = await db
    .selectFrom('admin_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row && toAdminToken(row);
}

/** Marks a token revoked at `at`; false when there is none with that id or it already was. */
export async function revokeAdminToken(db: Kysely<Database>, id: string, at: number): Promise<boolean> {
  const r = await db
    .updateTable('admin_tokens')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
