import type { ClientResponse } from '../../domain/client-response.js';
import { pageResponsesOfReview } from '../../store/repositories/client-responses.js';
import type { ServiceDeps } from '../deps.js';
import { type Page, type PageRequest, readPage } from '../paging/read-page.js';
import { requireClientReview } from './require-client-review.js';
import { type ResponseActor, requireGrantedClient } from './require-granted-client.js';

/**
 * The responses to one review of a granted client, whichever application wrote them, oldest first
 * and a page at a time, as every list is (paging/read-page.ts): a review answered again and again
 * would otherwise make each call read and send all of them. The cursor comes as `page[after]`.
 */
export async function listReviewResponses(
  deps: ServiceDeps,
  input: { actor: ResponseActor; clientName: string; reviewId: string; page: PageRequest },
): Promise<Page<ClientResponse>> {
  const db = deps.store.db;
  const client = await requireGrantedClient(deps.cache, input.actor, input.clientName);
  const review = await requireClientReview(db, client, input.reviewId);
  return readPage(
    input.page,
    (after, limit) =>
      pageResponsesOfReview(db, { environment: input.actor.environment, reviewId: review.id }, after, limit),
    (r) => ({ at: r.createdAt, id: r.id }),
    'page[after]',
  );
}
