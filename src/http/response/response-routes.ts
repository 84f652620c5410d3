import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { apiRoutesSetup, resourceApi } from '../api-routes-setup.js';
import { sendJsonApiError } from '../errors/render.js';
import type { HttpDeps } from '../http-deps.js';
import { DEPRECATION_HEADERS, RATE_LIMIT_HEADERS } from '../openapi/documented-answers.js';
import { ref } from '../openapi/schema-ref.js';
import { type Operation, registerRouteTable, route } from '../route-table.js';
import { announceDeprecation } from '../steps/announce-deprecation.js';
import { readResourceDocument } from './read-resource-document.js';
import { responseHandlers } from './response-handlers.js';
import { RESPONSE_OPERATIONS as O } from './response-operations.js';
import * as S from './response-schemas.js';

/** When `/contentmanagement` was deprecated in favour of `/response` (RFC 9745 date). */
const CONTENTMANAGEMENT_DEPRECATION = {
  since: new Date('2025-01-01T00:00:00Z'),
  prefix: '/contentmanagement/',
  successorPrefix: '/response/',
};

/** Under the old prefix, operations get their own ids and `deprecated: true` in /openapi.json. */
function viaContentmanagement(op: Operation) {
  return {
    operationId: `${op.operationId}ViaContentmanagement`,
    tags: ['Response API (deprecated /contentmanagement prefix)'],
    deprecated: true,
  };
}

/** JSON:API §5.1: documents are exchanged as application/vnd.api+json. */
function answerJsonApi(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.type(S.JSON_API);
  done();
}

// A route's own steps, after the bearer token, the passkey and the charge: reading a request
// document, answering with a JSON:API one.
const jsonApi = { steps: { preHandler: [answerJsonApi] } };
const create = { steps: { preValidation: [readResourceDocument('create')], preHandler: [answerJsonApi] } };
const update = { steps: { preValidation: [readResourceDocument('update')], preHandler: [answerJsonApi] } };

/**
 * Response API under /response/v1, and again under the deprecated /contentmanagement/v1, which
 * answers identically plus `Deprecation` and a `Link` to its successor (docs/interface.md §4.1, §9).
 *
 * Access: any application granted a client instance may list, answer, change and delete the
 * responses to that client's reviews; a response of any other client is a 404, like one that
 * does not exist. Success bodies are JSON:API documents (`application/vnd.api+json`), except the
 * counts, whose public shape is not one (`application/json`). Each operation's summary, request
 * parts and answers are in response-operations.ts.
 */
export function responseRoutes(deps: HttpDeps, options: { deprecated?: boolean } = {}): FastifyPluginAsync {
  const deprecated = options.deprecated === true;
  return async (app) => {
    const api = resourceApi(deps, {
      passkeyApi: 'response',
      render: sendJsonApiError,
      bodyTypes: [S.JSON_API, 'application/json'],
      errorBody: { mediaType: S.JSON_API, schema: ref(S.ErrorDocument) },
      // Every answer tells the passkey's allowance; under the old prefix, also its deprecation.
      everyAnswer: { ...RATE_LIMIT_HEADERS, ...(deprecated ? DEPRECATION_HEADERS : {}) },
      firstSteps: deprecated ? [announceDeprecation(CONTENTMANAGEMENT_DEPRECATION)] : [],
      ...(deprecated ? { rename: viaContentmanagement } : {}),
    });
    apiRoutesSetup(app, api);
    const h = responseHandlers(deps);
    // biome-ignore format: a route table, one route per line
    registerRouteTable(app, api, [
      route('GET',    '/clientResponses/:client/reviews/:reviewId',          O.listReviewResponses,                 jsonApi, h.listReviewResponses),
      route('POST',   '/clientResponses/:client/reviews/:reviewId',          O.createClientResponse,                create,  h.createClientResponse),
      route('POST',   '/clientResponses/reviews/-/responses',                O.countReviewResponses,                {},      h.countReviewResponses),
      route('GET',    '/clientResponses/:responseGuid',                      O.getClientResponse,                   jsonApi, h.getClientResponse),
      route('PATCH',  '/clientResponses/:responseGuid',                      O.updateClientResponse,                update,  h.updateClientResponse),
      route('DELETE', '/clientResponses/:responseGuid',                      O.deleteClientResponse,                {},      h.deleteClientResponse),
      route('GET',    '/clientResponses/:responseGuid/author',               O.getClientResponseAuthor,             jsonApi, h.getAuthor),
      route('GET',    '/clientResponses/:responseGuid/relationships/author', O.getClientResponseAuthorRelationship, jsonApi, h.getAuthorRelationship),
      route('GET',    '/clientResponses/:responseGuid/review',               O.getClientResponseReview,             jsonApi, h.getReview),
      route('GET',    '/clientResponses/:responseGuid/relationships/review', O.getClientResponseReviewRelationship, jsonApi, h.getReviewRelationship),
    ]);
  };
}
