import type { Kysely } from 'kysely';
import { chunks } from '../chunks.js';
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

/** A section as written: with the ids of the reviews it holds. */
export interface NewExportSection extends ExportSection {
  readonly reviewIds: readonly string[];
}

export async function replaceExports(
  db: Kysely<Database>,
  requestId: string,
  sections: readonly NewExportSection[],
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
    for (const chunk of chunks(s.reviewIds, 1000)) {
      await db
        .insertInto('privacy_export_reviews')
        .values(
          chunk.map((reviewId) => ({ request_id: requestId, client_id: s.clientId, review_id: reviewId })),
        )
        .execute();
    }
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
  const holding = await db
    .selectFrom('privacy_export_reviews')
    .select(['request_id', 'client_id', (eb) => eb.fn.min('review_id').as('review_id')])
    .where('review_id', 'in', reviewIds)
    .groupBy(['request_id', 'client_id'])
    .execute();
  const sections = holding.map((h) => ({
    requestId: h.request_id,
    clientId: h.client_id,
    reviewId: h.review_id,
  }));
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
