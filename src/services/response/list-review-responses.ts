import type { ClientResponse } from '../../domain/client-response.js';
import { listResponsesOfReview } from '../../store/repositories/client-responses.js';
import type { ServiceDeps } from '../deps.js';
import { requireClientReview } from './require-client-review.js';
import { type ResponseActor, requireGrantedClient } from './require-granted-client.js';

/** Every response to one review of a granted client, oldest first, whichever application wrote it. */
export async function listReviewResponses(
  deps: ServiceDeps,
  input: { actor: ResponseActor; clientName: string; reviewId: string },
): Promise<ClientResponse[]> {
  const db = deps.store.db;
  const client = await requireGrantedClient(deps.cache, input.actor, input.clientName);
  const review = await requireClientReview(db, client, input.reviewId);
  return listResponsesOfReview(db, input.actor.environment, review.id);
}
