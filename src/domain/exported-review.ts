import type { ClientResponse } from './client-response.js';
import { iso } from './instant.js';
import type { Review } from './review.js';

/**
 * Everything held about the subject in one review (GDPR Art. 15): content, profile, responses.
 * Kept as JSON per review when an access request completes, and the source of every form of the
 * download (docs/privacy.md, Exports).
 */
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

export type ExportedReview = ReturnType<typeof exportedReview>;
