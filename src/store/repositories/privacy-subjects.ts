import type { Kysely } from 'kysely';
import type { ClientResponse } from '../../domain/client-response.js';
import type { Environment } from '../../domain/environment.js';
import type { Review } from '../../domain/review.js';
import type { Database } from '../schema.js';
import { selectResponses, toClientResponse } from './client-responses.js';
import type { RequestIdentifierRow } from './privacy-requests.js';
import { toReview } from './reviews.js';

export interface SubjectScope {
  readonly environment: Environment;
  readonly clientIds: readonly string[];
  readonly identifiers: readonly RequestIdentifierRow[];
}

/**
 * Ids of the subject's reviews, found through the keyed hashes in review_identifiers (so no raw
 * identifier is needed), in id order from after `after`. One exact index look-up per identifier,
 * joined by UNION: an OR of (kind, hash) pairs would make SQLite scan every row of the clients.
 */
export async function findSubjectReviewIds(
  db: Kysely<Database>,
  scope: SubjectScope,
  page: { limit: number; after?: string },
): Promise<string[]> {
  if (scope.clientIds.length === 0 || scope.identifiers.length === 0) return [];
  const { after } = page;
  const lookups = scope.identifiers.map((s) => {
    const q = db
      .selectFrom('review_identifiers')
      .select('review_id')
      .where('client_id', 'in', scope.clientIds)
      .where('kind', '=', s.kind)
      .where('value_hash', '=', s.hash)
      .where('environment', '=', scope.environment);
    return after === undefined ? q : q.where('review_id', '>', after);
  });
  const [first, ...rest] = lookups;
  if (!first) return [];
  const union = rest.reduce((u, q) => u.union(q), first);
  const rows = await db
    .selectFrom(union.as('s'))
    .select('s.review_id')
    .orderBy('s.review_id')
    .limit(page.limit)
    .execute();
  return rows.map((r) => r.review_id);
}

/**
 * PostgreSQL: locks the reviews so that no client response can be added to them between counting
 * and deleting (an insert needs a key-share lock on its review). SQLite transactions are exclusive.
 */
export async function lockReviews(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  // In id order, so two workers erasing overlapping reviews lock them in the same order.
  await db.selectFrom('reviews').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** Deletes the responses on the given reviews; returns the client id of each deleted response. */
export async function deleteResponsesOfReviews(
  db: Kysely<Database>,
  reviewIds: readonly string[],
): Promise<{ clientId: string }[]> {
  if (reviewIds.length === 0) return [];
  const rows = await db
    .deleteFrom('client_responses')
    .where('review_id', 'in', reviewIds)
    .returning('client_id')
    .execute();
  return rows.map((r) => ({ clientId: r.client_id }));
}

/** Deletes reviews (their identifier hashes cascade); returns what was deleted, for the receipt. */
export async function deleteReviewsByIds(db: Kysely<Database>, ids: readonly string[]): Promise<Review[]> {
  if (ids.length === 0) return [];
  return (await db.deleteFrom('reviews').where('id', 'in', ids).returningAll().execute()).map(toReview);
}

export async function findReviewsByIds(db: Kysely<Database>, ids: readonly string[]): Promise<Review[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('reviews').selectAll().where('id', 'in', ids).orderBy('id').execute();
  return rows.map(toReview);
}

export async function findResponsesOfReviews(
  db: Kysely<Database>,
  reviewIds: readonly string[],
): Promise<ClientResponse[]> {
  if (reviewIds.length === 0) return [];
  const rows = await selectResponses(db)
    .where('client_responses.review_id', 'in', reviewIds)
    .orderBy('client_responses.created_at')
    .orderBy('client_responses.id')
    .execute();
  return rows.map(toClientResponse);
}
