import type { Kysely } from 'kysely';
import type { Client } from '../../domain/client.js';
import type { Review } from '../../domain/review.js';
import { AppError } from '../../errors.js';
import { findReview } from '../../store/repositories/reviews.js';
import type { Database } from '../../store/schema.js';

/**
 * The review a response answers, which must belong to the client named in the path. The public
 * system answers an unknown review id with 400, not 404 (docs/interface.md §10.2).
 */
export async function requireClientReview(
  db: Kysely<Database>,
  client: Client,
  reviewId: string,
): Promise<Review> {
  const review = await findReview(db, client.environment, reviewId);
  if (!review || review.clientId !== client.id) throw unknownReview(client, reviewId);
  return review;
}

/** A review id that names no review of the client. */
export function unknownReview(client: Client, reviewId: string): AppError {
  return new AppError('UNKNOWN_REVIEW', {
    field: 'reviewId',
    detail: `Review Id "${reviewId}" does not exist for client "${client.name}"`,
    source: { parameter: 'reviewId' },
  });
}
