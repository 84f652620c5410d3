import type { Kysely, Selectable } from 'kysely';
import type { Database, PrivacyExportsTable } from '../schema.js';

export type PrivacyExport = Selectable<PrivacyExportsTable>;

export async function replaceExports(
  db: Kysely<Database>,
  requestId: string,
  sections: readonly PrivacyExport[],
): Promise<void> {
  await db.deleteFrom('privacy_exports').where('request_id', '=', requestId).execute();
  for (const section of sections) await db.insertInto('privacy_exports').values(section).execute();
}

export async function findExports(db: Kysely<Database>, requestId: string): Promise<PrivacyExport[]> {
  return db
    .selectFrom('privacy_exports')
    .selectAll()
    .where('request_id', '=', requestId)
    .orderBy('client_name')
    .execute();
}

/** Removes the export sections of the given requests that cover the given clients. */
export async function deleteExportSections(
  db: Kysely<Database>,
  requestIds: readonly string[],
  clientIds: readonly string[],
): Promise<number> {
  if (requestIds.length === 0 || clientIds.length === 0) return 0;
  const r = await db
    .deleteFrom('privacy_exports')
    .where('request_id', 'in', requestIds)
    .where('client_id', 'in', clientIds)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function deleteExpiredExports(db: Kysely<Database>, now: number): Promise<number> {
  const r = await db.deleteFrom('privacy_exports').where('expires_at', '<=', now).executeTakeFirst();
  return Number(r.numDeletedRows);
}
