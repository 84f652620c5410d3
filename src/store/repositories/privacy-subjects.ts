import { type Kysely, sql } from 'kysely';
import type { ClientResponse } from '../../domain/client-response.js';
import type { SubjectKey } from '../../domain/privacy-subject.js';
import type { Review } from '../../domain/review.js';
import { dialectOf } from '../dialect-of.js';
import { type PreparedParams, type PreparedQuery, preparedQuery } from '../prepared-query.js';
import { REVIEW_COLUMNS } from '../rows/content-rows.js';
import type { Database } from '../schema.js';
import { selectResponses, toClientResponse } from './client-responses.js';
import type { RequestIdentifierRow } from './privacy-requests.js';
import { toReview } from './reviews.js';

/**
 * The identifiers linked to the named ones (docs/design.md, Privacy API, "Same end user"): every
 * identifier stored on a review, in one of the clients, that carries a named identifier. One hop
 * only: identifiers linked to those are not followed. The named identifiers themselves are not
 * repeated unless a review carries them.
 */
export async function findLinkedIdentifiers(
  db: Kysely<Database>,
  subject: {
    readonly clientIds: readonly string[];
    readonly identifiers: readonly RequestIdentifierRow[];
  },
): Promise<SubjectKey[]> {
  const { clientIds, identifiers } = subject;
  if (clientIds.length === 0 || identifiers.length === 0) return [];
  const params: PreparedParams = {};
  clientIds.forEach((id, j) => {
    params[`c${j}`] = id;
  });
  identifiers.forEach((s, i) => {
    params[`k${i}`] = s.kind;
    params[`h${i}`] = s.hash;
  });
  const rows = await linkedIdentifiersQuery(identifiers.length, clientIds.length).execute(db, params);
  return rows.map((r) => ({ clientId: r.client_id, kind: r.kind, hash: r.value_hash }));
}

/**
 * Shapes (identifiers × clients) compiled and kept: a request names a few identifiers for the few
 * client instances of its application, so few shapes recur; larger ones are compiled per call.
 */
const MAX_LINKED_SHAPES = 64;
const linkedShapes = new Map<string, PreparedQuery<PreparedParams, LinkedRow>>();

interface LinkedRow {
  client_id: string;
  kind: string;
  value_hash: string;
}

/**
 * The look-up of findLinkedIdentifiers for `identifiers` identifiers in `clients` clients, compiled
 * once per shape: building it with Kysely cost more CPU than running it (bench/results/history.md,
 * Privacy).
 */
function linkedIdentifiersQuery(
  identifiers: number,
  clients: number,
): PreparedQuery<PreparedParams, LinkedRow> {
  const shape = `${identifiers}:${clients}`;
  const kept = linkedShapes.get(shape);
  if (kept) return kept;
  const query = preparedQuery((db, p: PreparedParams) => {
    const clientIds = Array.from({ length: clients }, (_, j) => p[`c${j}`] as string);
    // One exact index look-up per identifier, joined by UNION (an OR of pairs would scan on SQLite).
    const lookups = Array.from({ length: identifiers }, (_, i) =>
      db
        .selectFrom('review_identifiers')
        .select('review_id')
        .where('client_id', 'in', clientIds)
        .where('kind', '=', p[`k${i}`] as string)
        .where('value_hash', '=', p[`h${i}`] as string),
    );
    const [first, ...rest] = lookups as [(typeof lookups)[number], ...typeof lookups];
    const reviews = rest.reduce((u, q) => u.union(q), first);
    return db
      .selectFrom('review_identifiers as ri')
      .innerJoin(reviews.as('m'), 'm.review_id', 'ri.review_id')
      .select(['ri.client_id', 'ri.kind', 'ri.value_hash'])
      .distinct();
  });
  if (linkedShapes.size < MAX_LINKED_SHAPES) linkedShapes.set(shape, query);
  return query;
}

/**
 * Requests' subject keys (privacy_pending_keys) joined to the reviews carrying them, each key an
 * exact look-up in the review identifier index. On PostgreSQL the look-up is a LATERAL subquery,
 * so it stays one index probe per key whatever the planner estimates: the pending keys of a busy
 * queue change faster than autovacuum analyzes them, and with the estimate of thousands of keys
 * for a few, a plain join was planned as a parallel sort of every review identifier (0.5 s
 * against a few ms, measured under the privacy benchmark; bench/results/history.md, Privacy).
 * SQLite plans the
 * plain join as that probe already, and has no LATERAL.
 */
function subjectKeyReviews(db: Kysely<Database>) {
  const keys = db.selectFrom('privacy_pending_keys as k');
  if (dialectOf(db) === 'postgres') {
    return keys.innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('review_identifiers as i')
          .select('i.review_id')
          .whereRef('i.client_id', '=', 'k.client_id')
          .whereRef('i.kind', '=', 'k.kind')
          .whereRef('i.value_hash', '=', 'k.value_hash')
          // A fence: without it PostgreSQL pulls the subquery up into a plain join, and plans
          // that as before.
          .offset(0)
          .as('ri'),
      (join) => join.onTrue(),
    );
  }
  return keys.innerJoin('review_identifiers as ri', (join) =>
    join
      .onRef('ri.client_id', '=', 'k.client_id')
      .onRef('ri.kind', '=', 'k.kind')
      .onRef('ri.value_hash', '=', 'k.value_hash'),
  );
}

/**
 * Ids of the reviews of a request's subject, in id order from after `after`: the reviews carrying
 * one of the request's subject keys (privacy_pending_keys: its named and linked identifiers per
 * client, fixed when it was accepted), optionally in one client only. Driven by the request's keys,
 * each an exact look-up in the review identifier index.
 */
export async function findSubjectReviewIds(
  db: Kysely<Database>,
  scope: { readonly requestId: string; readonly clientId?: string },
  page: { limit: number; after?: string },
): Promise<string[]> {
  let q = subjectKeyReviews(db).select('ri.review_id').distinct().where('k.request_id', '=', scope.requestId);
  if (scope.clientId !== undefined) q = q.where('k.client_id', '=', scope.clientId);
  if (page.after !== undefined) q = q.where('ri.review_id', '>', page.after);
  const rows = await q.orderBy('ri.review_id').limit(page.limit).execute();
  return rows.map((r) => r.review_id);
}

/**
 * The subject reviews of several requests together, at most `limit` (request, review) pairs, taken
 * round-robin: every request's first review (in request id order), then every request's second,
 * and so on. So one transaction's share stays bounded however many reviews one subject has, and
 * the small subjects beside a large one are not starved by it. `rank` is the review's position
 * within its request's reviews (1-based). Same look-ups as findSubjectReviewIds.
 */
export async function findSubjectReviewsOfRequests(
  db: Kysely<Database>,
  requestIds: readonly string[],
  limit: number,
): Promise<{ requestId: string; reviewId: string; rank: number }[]> {
  if (requestIds.length === 0) return [];
  const rows = await subjectReviewsOfRequestsQuery(db, requestIds, limit).execute();
  return rows.map((r) => ({ requestId: r.request_id, reviewId: r.review_id, rank: Number(r.rank) }));
}

/** The query of findSubjectReviewsOfRequests, for its plan to be examined. */
export function subjectReviewsOfRequestsQuery(
  db: Kysely<Database>,
  requestIds: readonly string[],
  limit: number,
) {
  const pairs = subjectKeyReviews(db)
    .select(['k.request_id', 'ri.review_id'])
    .distinct()
    .where('k.request_id', 'in', requestIds);
  const ranked = db
    .selectFrom(pairs.as('p'))
    .select([
      'p.request_id',
      'p.review_id',
      sql<number | string>`row_number() over (partition by p.request_id order by p.review_id)`.as('rank'),
    ]);
  return db
    .selectFrom(ranked.as('r'))
    .select(['r.request_id', 'r.review_id', 'r.rank'])
    .orderBy('r.rank')
    .orderBy('r.request_id')
    .limit(limit);
}

/**
 * PostgreSQL: locks the reviews so that no client response can be added to them between counting
 * and deleting (an insert needs a key-share lock on its review). SQLite transactions are exclusive,
 * so there it does nothing.
 */
export async function lockReviews(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0 || dialectOf(db) !== 'postgres') return;
  // In id order, so two workers erasing overlapping reviews lock them in the same order.
  await db.selectFrom('reviews').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** Deletes the responses on the given reviews; returns the review and client of each deleted one. */
export async function deleteResponsesOfReviews(
  db: Kysely<Database>,
  reviewIds: readonly string[],
): Promise<{ reviewId: string; clientId: string }[]> {
  if (reviewIds.length === 0) return [];
  return db
    .deleteFrom('client_responses')
    .where('review_id', 'in', reviewIds)
    .returning(['review_id as reviewId', 'client_id as clientId'])
    .execute();
}

/** Deletes reviews (their identifier hashes cascade); returns what was deleted, for the receipt. */
export async function deleteReviewsByIds(db: Kysely<Database>, ids: readonly string[]): Promise<Review[]> {
  if (ids.length === 0) return [];
  return (await db.deleteFrom('reviews').where('id', 'in', ids).returning(REVIEW_COLUMNS).execute()).map(
    toReview,
  );
}

export async function findReviewsByIds(db: Kysely<Database>, ids: readonly string[]): Promise<Review[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('reviews')
    .select(REVIEW_COLUMNS)
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
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
