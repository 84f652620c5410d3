import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** An access request's export for one client instance: personal data, kept until `expiresAt`. */
export interface ExportSection {
  readonly clientId: string;
  readonly clientName: string;
  /** The section's JSON document, stored as the download serves it. */
  readonly content: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export async function replaceExports(
  db: Kysely<Database>,
  requestId: string,
  sections: readonly ExportSection[],
): Promise<void> {
  await db.deleteFrom('privacy_exports').where('request_id', '=', requestId).execute();
  for (const s of sections) {
    await db
      .insertInto('privacy_exports')
      .values({
        request_id: requestId,
        client_id: s.clientId,
        client_name: s.clientName,
        content: s.content,
        created_at: s.createdAt,
        expires_at: s.expiresAt,
      })
      .execute();
  }
}

export async function findExports(db: Kysely<Database>, requestId: string): Promise<ExportSection[]> {
  const rows = await db
    .selectFrom('privacy_exports')
    .selectAll()
    .where('request_id', '=', requestId)
    .orderBy('client_name')
    .execute();
  return rows.map((r) => ({
    clientId: r.client_id,
    clientName: r.client_name,
    content: r.content,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  }));
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
