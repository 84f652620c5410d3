import type { ClientResponse } from '../../domain/client-response.js';
import { iso } from '../../domain/instant.js';
import type { Review } from '../../domain/review.js';

/** Everything held about the subject in one review (GDPR Art. 15): content, profile, responses. */
export function exportedReview(review: Review, responses: readonly ClientResponse[]) {
  return {
    id: review.id,
    rating: review.rating,
    title: review.title,
    text: review.text,
    submittedAt: iso(review.submittedAt),
    author: { ...review.author },
    clientResponses: responses.map((r) => ({
      id: r.id,
      department: r.department,
      response: r.response,
      responseBy: r.responseBy,
      responseSource: r.responseSource,
      created: iso(r.createdAt),
      updated: iso(r.updatedAt),
    })),
  };
}

/**
 * The export section of one client instance, as stored and as downloaded: the download joins the
 * stored sections without parsing them again.
 */
export function exportSection(
  clientName: string,
  reviews: readonly ReturnType<typeof exportedReview>[],
): string {
  return JSON.stringify({ clientName, reviews });
}
