import type { Kysely } from 'kysely';
import { chunks } from '../chunks.js';
import type { Database } from '../schema.js';

/** An access request's export for one client instance: personal data, kept until `expiresAt`. */
export interface ExportSection {
  readonly clientId: string;
  readonly clientName: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** Deletes a request's export sections, their reviews with them, before it is built again. */
export async function deleteRequestExports(db: Kysely<Database>, requestId: string): Promise<void> {
  await db.deleteFrom('privacy_exports').where('request_id', '=', requestId).execute();
}

/** Adds a section; its reviews follow (insertExportReviews), in the same transaction. */
export async function insertExportSection(
  db: Kysely<Database>,
  requestId: string,
  section: ExportSection,
): Promise<void> {
  await db
    .insertInto('privacy_exports')
    .values({
      request_id: requestId,
      client_id: section.clientId,
      client_name: section.clientName,
      // Its reviews are rows of their own (privacy_export_reviews); the column is the document
      // of a section as versions before 2026-11-27-02-export-review-content kept it.
      content: '',
      created_at: section.createdAt,
      expires_at: section.expiresAt,
    })
    .execute();
}

/** Adds reviews to a section, each with what the export says of it (JSON). */
export async function insertExportReviews(
  db: Kysely<Database>,
  section: { requestId: string; clientId: string },
  reviews: readonly { reviewId: string; content: string }[],
): Promise<void> {
  // Four columns a row: well under SQLite's bound parameters per statement.
  for (const chunk of chunks(reviews, 1000)) {
    await db
      .insertInto('privacy_export_reviews')
      .values(
        chunk.map((r) => ({
          request_id: section.requestId,
          client_id: section.clientId,
          review_id: r.reviewId,
          content: r.content,
        })),
      )
      .execute();
  }
}

export async function exportSectionExists(
  db: Kysely<Database>,
  section: { requestId: string; clientId: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('privacy_exports')
    .select('client_id')
    .where('request_id', '=', section.requestId)
    .where('client_id', '=', section.clientId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Up to `limit` reviews of a section after `after`, in review id order, with their JSON. */
export async function pageExportReviews(
  db: Kysely<Database>,
  page: { requestId: string; clientId: string; after: string | null; limit: number },
): Promise<{ reviewId: string; content: string }[]> {
  let q = db
    .selectFrom('privacy_export_reviews')
    .select(['review_id', 'content'])
    .where('request_id', '=', page.requestId)
    .where('client_id', '=', page.clientId);
  if (page.after !== null) q = q.where('review_id', '>', page.after);
  const rows = await q.orderBy('review_id').limit(page.limit).execute();
  return rows.map((r) => ({ reviewId: r.review_id, content: r.content ?? 'null' }));
}

export async function findExports(db: Kysely<Database>, requestId: string): Promise<ExportSection[]> {
  return db
    .selectFrom('privacy_exports')
    .select([
      'client_id as clientId',
      'client_name as clientName',
      'created_at as createdAt',
      'expires_at as expiresAt',
    ])
    .where('request_id', '=', requestId)
    .orderBy('client_name')
    .execute();
}

/** Removes the given (request, client) export sections; returns the client id of each removed. */
export async function deleteExportSections(
  db: Kysely<Database>,
  sections: readonly { requestId: string; clientId: string }[],
): Promise<string[]> {
  const removed: string[] = [];
  const byRequest = new Map<string, string[]>();
  for (const s of sections) byRequest.set(s.requestId, [...(byRequest.get(s.requestId) ?? []), s.clientId]);
  for (const [requestId, clientIds] of byRequest) {
    const rows = await db
      .deleteFrom('privacy_exports')
      .where('request_id', '=', requestId)
      .where('client_id', 'in', clientIds)
      .returning('client_id')
      .execute();
    removed.push(...rows.map((r) => r.client_id));
  }
  return removed;
}

/**
 * Removes every export section that holds one of these reviews; returns each removed section's
 * request and client, and one of the given reviews it held (to say whose erasure removed it).
 */
export async function deleteExportSectionsHolding(
  db: Kysely<Database>,
  reviewIds: readonly string[],
): Promise<{ requestId: string; clientId: string; reviewId: string }[]> {
  if (reviewIds.length === 0) return [];
  const sections = await db
    .selectFrom('privacy_export_reviews')
    .select([
      'request_id as requestId',
      'client_id as clientId',
      (eb) => eb.fn.min('review_id').as('reviewId'),
    ])
    .where('review_id', 'in', reviewIds)
    .groupBy(['request_id', 'client_id'])
    .execute();
  await deleteExportSections(db, sections);
  return sections;
}

/** Deletes up to `limit` export sections whose download period has ended; returns how many. */
export async function deleteExpiredExports(
  db: Kysely<Database>,
  now: number,
  limit: number,
): Promise<number> {
  const expired = await db
    .selectFrom('privacy_exports')
    .select(['request_id', 'client_id'])
    .where('expires_at', '<=', now)
    .limit(limit)
    .execute();
  let deleted = 0;
  for (const part of chunks(expired, 250)) {
    const r = await db
      .deleteFrom('privacy_exports')
      .where((eb) =>
        eb.or(
          part.map((e) => eb.and([eb('request_id', '=', e.request_id), eb('client_id', '=', e.client_id)])),
        ),
      )
      .executeTakeFirst();
    deleted += Number(r.numDeletedRows);
  }
  return deleted;
}
