import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { apiRoutesSetup } from '../api-routes-setup.js';
import { sendJsonApiError } from '../errors/render.js';
import type { HttpDeps } from '../http-deps.js';
import { DEPRECATION_HEADERS, RATE_LIMIT_HEADERS } from '../openapi/documented-answers.js';
import { ref } from '../openapi/schema-ref.js';
import { announceDeprecation } from '../steps/announce-deprecation.js';
import { readResourceDocument } from './read-resource-document.js';
import { responseHandlers } from './response-handlers.js';
import { RESPONSE_OPERATIONS, type ResponseOperationId } from './response-operations.js';
import * as S from './response-schemas.js';

/** When `/contentmanagement` was deprecated in favour of `/response` (RFC 9745 date). */
const CONTENTMANAGEMENT_DEPRECATION = {
  since: new Date('2025-01-01T00:00:00Z'),
  prefix: '/contentmanagement/',
  successorPrefix: '/response/',
};

const ON_REVIEW = '/clientResponses/:client/reviews/:reviewId';
const COUNT = '/clientResponses/reviews/-/responses';
const ONE = '/clientResponses/:responseGuid';
const REL = `${ONE}/relationships`;

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
  return async (plugin) => {
    const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
    const routeOptions = apiRoutesSetup(app, deps, {
      passkeyApi: 'response',
      render: sendJsonApiError,
      bodyTypes: [S.JSON_API, 'application/json'],
      errorBody: { mediaType: S.JSON_API, schema: ref(S.ErrorDocument) },
      // Every answer tells the passkey's allowance; under the old prefix, also its deprecation.
      everyAnswer: { ...RATE_LIMIT_HEADERS, ...(deprecated ? DEPRECATION_HEADERS : {}) },
      firstSteps: deprecated ? [announceDeprecation(CONTENTMANAGEMENT_DEPRECATION)] : [],
    });
    // The old prefix gets its own operation ids and `deprecated: true` in /openapi.json.
    const route = <K extends ResponseOperationId, P extends object>(id: K, steps: P) =>
      routeOptions(
        deprecated
          ? { operationId: `${id}ViaContentmanagement`, tags: [DEPRECATED_TAG], deprecated }
          : { operationId: id, tags: ['Response API'] },
        RESPONSE_OPERATIONS[id],
        steps,
      );
    const h = responseHandlers(deps);
    const plain = {};
    // Steps after authentication: reading a request document, answering with a JSON:API one.
    const jsonApi = { preHandler: [answerJsonApi] };
    const create = { preValidation: [readResourceDocument('create')], ...jsonApi };
    const update = { preValidation: [readResourceDocument('update')], ...jsonApi };

    app.get(ON_REVIEW, route('listReviewResponses', jsonApi), h.listReviewResponses);
    app.post(ON_REVIEW, route('createClientResponse', create), h.createClientResponse);
    app.post(COUNT, route('countReviewResponses', plain), h.countReviewResponses);
    app.get(ONE, route('getClientResponse', jsonApi), h.getClientResponse);
    app.patch(ONE, route('updateClientResponse', update), h.updateClientResponse);
    app.delete(ONE, route('deleteClientResponse', plain), h.deleteClientResponse);
    app.get(`${ONE}/author`, route('getClientResponseAuthor', jsonApi), h.getAuthor);
    app.get(`${REL}/author`, route('getClientResponseAuthorRelationship', jsonApi), h.getAuthorRelationship);
    app.get(`${ONE}/review`, route('getClientResponseReview', jsonApi), h.getReview);
    app.get(`${REL}/review`, route('getClientResponseReviewRelationship', jsonApi), h.getReviewRelationship);
  };
}

const DEPRECATED_TAG = 'Response API (deprecated /contentmanagement prefix)';

/** JSON:API §5.1: documents are exchanged as application/vnd.api+json. */
function answerJsonApi(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.type(S.JSON_API);
  done();
}
