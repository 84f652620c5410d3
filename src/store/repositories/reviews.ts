import type { Kysely } from 'kysely';
import type { Database, Environment, NewReview, Review, ReviewIdentifiersTable } from '../schema.js';

export async function insertReviews(
  db: Kysely<Database>,
  reviews: readonly NewReview[],
  identifiers: readonly ReviewIdentifiersTable[],
): Promise<void> {
  // Parameter limits: SQLite allows 32766 bound values, PostgreSQL 65535; 19 columns x 500 rows fits.
  for (let i = 0; i < reviews.length; i += 500) {
    await db
      .insertInto('reviews')
      .values(reviews.slice(i, i + 500))
      .execute();
  }
  for (let i = 0; i < identifiers.length; i += 1000) {
    await db
      .insertInto('review_identifiers')
      .values(identifiers.slice(i, i + 1000))
      .execute();
  }
}

export async function findReview(
  db: Kysely<Database>,
  environment: Environment,
  reviewId: string,
): Promise<Review | undefined> {
  return db
    .selectFrom('reviews')
    .selectAll()
    .where('environment', '=', environment)
    .where('id', '=', reviewId)
    .executeTakeFirst();
}

export async function countReviews(db: Kysely<Database>): Promise<number> {
  const r = await db
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
