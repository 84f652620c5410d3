import type { Kysely } from 'kysely';
import type { Environment } from '../../domain/environment.js';
import { IDENTIFIER_KINDS, type IdentifierKind } from '../../domain/identifiers.js';
import type { Review, ReviewAuthor, ReviewRecord } from '../../domain/review.js';
import { chunks } from '../chunks.js';
import { preparedQuery } from '../prepared-query.js';
import { REVIEW_COLUMNS } from '../rows/content-rows.js';
import type { Database, ReviewRow, ReviewsTable } from '../schema.js';

/** The review columns that hold each identifier of its author. */
const IDENTIFIER_COLUMNS = {
  authorId: 'author_id',
  emailAddress: 'author_email',
  phoneNumber: 'author_phone',
  instagramUsername: 'author_instagram',
  facebookUsername: 'author_facebook',
  twitterUsername: 'author_twitter',
  youtubeChannelId: 'author_youtube_channel',
  youtubeUsername: 'author_youtube_username',
  vimeoUsername: 'author_vimeo',
} as const satisfies Record<IdentifierKind, keyof ReviewsTable>;

export function toReview(row: ReviewRow): Review {
  const author: ReviewAuthor = {};
  if (row.author_name) author.name = row.author_name;
  for (const kind of IDENTIFIER_KINDS) {
    const value = row[IDENTIFIER_COLUMNS[kind]];
    if (value) author[kind] = value;
  }
  return {
    id: row.id,
    environment: row.environment,
    clientId: row.client_id,
    rating: row.rating,
    title: row.title,
    text: row.text,
    author,
    submittedAt: row.submitted_at,
    createdAt: row.created_at,
  };
}

function reviewRow(review: Review): ReviewRow {
  const row: ReviewRow = {
    id: review.id,
    environment: review.environment,
    client_id: review.clientId,
    rating: review.rating,
    title: review.title,
    text: review.text,
    author_name: review.author.name ?? null,
    author_id: null,
    author_email: null,
    author_phone: null,
    author_instagram: null,
    author_facebook: null,
    author_twitter: null,
    author_youtube_channel: null,
    author_youtube_username: null,
    author_vimeo: null,
    submitted_at: review.submittedAt,
    created_at: review.createdAt,
  };
  for (const kind of IDENTIFIER_KINDS) row[IDENTIFIER_COLUMNS[kind]] = review.author[kind] ?? null;
  return row;
}

export async function insertReviews(db: Kysely<Database>, records: readonly ReviewRecord[]): Promise<void> {
  const reviews = records.map((r) => reviewRow(r.review));
  const identifiers = records.flatMap(({ review, identifiers }) =>
    identifiers.map((i) => ({
      review_id: review.id,
      environment: review.environment,
      client_id: review.clientId,
      kind: i.kind,
      value_hash: i.hash,
    })),
  );
  // 19 columns x 500 rows, and 5 x 1000, stay below both databases' parameter limits.
  for (const chunk of chunks(reviews, 500)) await db.insertInto('reviews').values(chunk).execute();
  for (const chunk of chunks(identifiers, 1000)) {
    await db.insertInto('review_identifiers').values(chunk).execute();
  }
}

export async function findReview(
  db: Kysely<Database>,
  environment: Environment,
  reviewId: string,
): Promise<Review | undefined> {
  const row = await reviewById.executeTakeFirst(db, { environment, reviewId });
  return row && toReview(row);
}

const reviewById = preparedQuery((db, p: { environment: Environment; reviewId: string }) =>
  db
    .selectFrom('reviews')
    .select(REVIEW_COLUMNS)
    .where('environment', '=', p.environment)
    .where('id', '=', p.reviewId),
);

/** Which of these review ids are taken already. */
export async function findExistingReviewIds(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks(ids, 1000)) {
    const rows = await db.selectFrom('reviews').select('id').where('id', 'in', chunk).execute();
    for (const r of rows) found.add(r.id);
  }
  return found;
}
