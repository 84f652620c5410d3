import { randomUUID } from 'node:crypto';
import type { ClientResponse } from '../../domain/client-response.js';
import { normalizeResponseAttributes, responseTextHash } from '../../domain/response-attributes.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../store/driver-errors.js';
import { insertClientResponse } from '../../store/repositories/client-responses.js';
import { findOrCreateResponseAuthor } from '../../store/repositories/response-authors.js';
import { inTransaction } from '../../store/transaction.js';
import type { ServiceDeps } from '../deps.js';
import { type IdempotentRequest, runIdempotently } from '../idempotency/run-idempotently.js';
import { duplicateResponse } from './duplicate-response.js';
import { getClientResponse } from './get-client-response.js';
import { requireClientReview, unknownReview } from './require-client-review.js';
import { type ResponseActor, requireGrantedClient } from './require-granted-client.js';

/**
 * Answers a review at most once per Idempotency-Key of the application (services/idempotency): a
 * retry gets the response the first one created, as it is now.
 */
export async function createClientResponseOnce(
  deps: ServiceDeps,
  input: Parameters<typeof createClientResponse>[1],
  idempotency: IdempotentRequest,
): Promise<{ readonly response: ClientResponse; readonly replayed: boolean }> {
  const { value, replayed } = await runIdempotently(
    deps,
    idempotency,
    (d) => createClientResponse(d, input),
    {
      // The response's id only: a retry answers the response as it is now.
      keep: (response) => ({ id: response.id }),
      answer: (kept) => getClientResponse(deps, { scope: input.actor, id: kept.id }),
    },
  );
  return { response: value, replayed };
}

/**
 * Answers a review. The author is the application's author of that name (`responseBy`, or the
 * application's own name), created on first use; `responseSource` records the application.
 */
export async function createClientResponse(
  deps: ServiceDeps,
  input: {
    actor: ResponseActor;
    clientName: string;
    reviewId: string;
    attributes: { department: string; response: string; responseBy?: string | null | undefined };
  },
): Promise<ClientResponse> {
  const { actor } = input;
  const attributes = normalizeResponseAttributes(input.attributes);
  const now = deps.clock();
  // From the tenancy cache, before the transaction. Grants are only ever added with their application.
  const client = await requireGrantedClient(deps.cache, actor, input.clientName);
  try {
    return await inTransaction(deps.store.db, async (trx) => {
      const review = await requireClientReview(trx, client, input.reviewId);
      const author = await findOrCreateResponseAuthor(trx, {
        environment: actor.environment,
        applicationId: actor.applicationId,
        name: attributes.responseBy ?? actor.applicationName,
        now,
      });
      const record: ClientResponse = {
        id: randomUUID(),
        environment: actor.environment,
        reviewId: review.id,
        clientId: client.id,
        clientName: client.name,
        applicationId: actor.applicationId,
        authorId: author.id,
        department: attributes.department,
        response: attributes.response,
        responseHash: responseTextHash(attributes.response),
        responseBy: attributes.responseBy,
        responseSource: actor.applicationName,
        createdAt: now,
        updatedAt: now,
      };
      await insertClientResponse(trx, record);
      return record;
    });
  } catch (err) {
    // The unique (review_id, response_hash) key decides, also between concurrent requests.
    if (isUniqueViolation(err)) throw duplicateResponse();
    // Of the rows a response refers to, only its review is ever deleted (an erasure:
    // docs/privacy.md). Erased between the check above and the insert, the erasure came first: the
    // review is answered as one that does not exist, and the transaction (an author it may have
    // made) is rolled back.
    if (isForeignKeyViolation(err)) throw unknownReview(client, input.reviewId);
    throw err;
  }
}
