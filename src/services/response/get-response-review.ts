import type { ClientResponse } from '../../domain/client-response.js';
import type { Review } from '../../domain/review.js';
import type { ResponseScope } from '../../store/repositories/client-responses.js';
import { findReview } from '../../store/repositories/reviews.js';
import type { ServiceDeps } from '../deps.js';
import { getClientResponse } from './get-client-response.js';
import { responseNotFound } from './response-not-found.js';

/** The review a response answers, with the name of its client instance. */
export async function getResponseReview(
  deps: ServiceDeps,
  input: { scope: ResponseScope; id: string },
): Promise<{ response: ClientResponse; review: Review; clientName: string }> {
  const record = await getClientResponse(deps, input);
  const review = await findReview(deps.store.db, input.scope.environment, record.reviewId);
  // A response cannot outlive its review (ON DELETE CASCADE); this only covers a concurrent erasure.
  if (!review) throw responseNotFound();
  return { response: record, review, clientName: record.clientName };
}
