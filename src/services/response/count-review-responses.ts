import { AppError } from '../../errors.js';
import { countResponsesOfReviews, type ResponseScope } from '../../store/repositories/client-responses.js';
import type { ServiceDeps } from '../deps.js';

export const MAX_COUNTED_REVIEWS = 1000;

/**
 * Response counts for a list of reviews, in the order asked (duplicates once). A review that is
 * unknown, of another tenant's client, or unanswered counts 0: a bulk call should not fail on one
 * id, and a count reveals nothing about reviews the application cannot see.
 */
export async function countReviewResponses(
  deps: ServiceDeps,
  input: { scope: ResponseScope; reviewIds: readonly string[] },
): Promise<{ reviewId: string; responseCount: number }[]> {
  if (input.reviewIds.length > MAX_COUNTED_REVIEWS) {
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field: 'reviewIds',
      detail: `reviewIds may name at most ${MAX_COUNTED_REVIEWS} reviews`,
      source: { pointer: '/reviewIds' },
    });
  }
  const ids = [...new Set(input.reviewIds)];
  const counts = await countResponsesOfReviews(deps.store.db, input.scope, ids);
  return ids.map((reviewId) => ({ reviewId, responseCount: counts.get(reviewId) ?? 0 }));
}
