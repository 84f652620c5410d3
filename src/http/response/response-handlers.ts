import type { FastifyReply } from 'fastify';
import { countReviewResponses } from '../../services/response/count-review-responses.js';
import { createClientResponseOnce } from '../../services/response/create-client-response.js';
import { deleteClientResponse } from '../../services/response/delete-client-response.js';
import { getClientResponse, getClientResponseAuthor } from '../../services/response/get-client-response.js';
import { getResponseReview } from '../../services/response/get-response-review.js';
import { listReviewResponses } from '../../services/response/list-review-responses.js';
import { updateClientResponse } from '../../services/response/update-client-response.js';
import { actingApplication } from '../acting-application.js';
import type { HttpDeps } from '../http-deps.js';
import { idempotencyOf, markReplayed } from '../idempotent-request.js';
import type { RouteReply, RouteRequest } from '../route-request.js';
import { resourceAttributes } from './read-resource-document.js';
import * as doc from './response-documents.js';
import type * as S from './response-schemas.js';

type OnResponse = RouteRequest<typeof S.OnResponse>;

/** One handler per Response API operation: call a service, render its result. */
export function responseHandlers(deps: HttpDeps) {
  const find = (req: OnResponse) =>
    getClientResponse(deps, { scope: actingApplication(req), id: req.params.responseGuid });
  const findAuthor = (req: OnResponse) =>
    getClientResponseAuthor(deps, { scope: actingApplication(req), id: req.params.responseGuid });

  return {
    async listReviewResponses(req: RouteRequest<typeof S.ListResponses>) {
      const { 'page[size]': size, 'page[after]': after } = req.query;
      const { client, reviewId } = req.params;
      const page = await listReviewResponses(deps, {
        ...{ actor: actingApplication(req), clientName: client, reviewId },
        page: { limit: size, cursor: after },
      });
      return doc.clientResponseCollection(req.site.baseUrl, req.params, page, { size, after });
    },

    async createClientResponse(req: RouteRequest<typeof S.CreateResponse>, reply: FastifyReply) {
      const { client, reviewId } = req.params;
      const actor = actingApplication(req);
      const { response, replayed } = await createClientResponseOnce(
        deps,
        { actor, clientName: client, reviewId, attributes: resourceAttributes(req.body) },
        idempotencyOf(req),
      );
      markReplayed(reply, replayed);
      return doc.clientResponseDocument(req.site.baseUrl, response);
    },

    async countReviewResponses(req: RouteRequest<typeof S.CountResponses>) {
      return {
        counts: await countReviewResponses(deps, {
          scope: actingApplication(req),
          reviewIds: req.body.reviewIds,
        }),
      };
    },

    async getClientResponse(req: OnResponse) {
      return doc.clientResponseDocument(req.site.baseUrl, await find(req));
    },

    async updateClientResponse(req: RouteRequest<typeof S.UpdateResponse>) {
      const record = await updateClientResponse(deps, {
        scope: actingApplication(req),
        id: req.params.responseGuid,
        changes: resourceAttributes(req.body),
      });
      return doc.clientResponseDocument(req.site.baseUrl, record);
    },

    async deleteClientResponse(req: OnResponse, reply: RouteReply<typeof S.OnResponse>) {
      await deleteClientResponse(deps, { scope: actingApplication(req), id: req.params.responseGuid });
      return reply.code(204).send();
    },

    async getAuthor(req: OnResponse) {
      return doc.authorDocument(req.site.baseUrl, await findAuthor(req));
    },

    async getAuthorRelationship(req: OnResponse) {
      return doc.authorRelationshipDocument(req.site.baseUrl, await findAuthor(req));
    },

    async getReview(req: OnResponse) {
      const { response, review, clientName } = await getResponseReview(deps, {
        scope: actingApplication(req),
        id: req.params.responseGuid,
      });
      return doc.reviewDocument(req.site.baseUrl, response.id, review, clientName);
    },

    async getReviewRelationship(req: OnResponse) {
      return doc.reviewRelationshipDocument(req.site.baseUrl, await find(req));
    },
  };
}
