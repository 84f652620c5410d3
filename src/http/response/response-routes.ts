import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { TSchema } from 'typebox';
import { acceptJsonBodies } from '../accept-json-bodies.js';
import { installErrorHandling } from '../errors/install-error-handling.js';
import { sendJsonApiError } from '../errors/render.js';
import type { HttpDeps } from '../http-deps.js';
import { announceDeprecation } from '../steps/announce-deprecation.js';
import { authenticateBearer } from '../steps/authenticate-bearer.js';
import { authenticatePasskey } from '../steps/authenticate-passkey.js';
import { chargePasskey } from '../steps/charge-passkey.js';
import { readResourceDocument } from './read-resource-document.js';
import { responseHandlers } from './response-handlers.js';
import * as S from './response-schemas.js';

/** When `/contentmanagement` was deprecated in favour of `/response` (RFC 9745 date). */
const CONTENTMANAGEMENT_DEPRECATED_SINCE = new Date('2025-01-01T00:00:00Z');

/**
 * Response API under /response/v1, and again under the deprecated /contentmanagement/v1, which
 * answers identically plus `Deprecation` and a `Link` to its successor (docs/interface.md §4.1, §9).
 *
 * Access: any application granted a client instance may list, answer, change and delete the
 * responses to that client's reviews; a response of any other client is a 404, like one that
 * does not exist. Success bodies are JSON:API documents (`application/vnd.api+json`), except the
 * counts, whose public shape is not one (`application/json`).
 */
export function responseRoutes(deps: HttpDeps, options: { deprecated?: boolean } = {}): FastifyPluginAsync {
  const deprecated = options.deprecated === true;
  return async (plugin) => {
    const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
    installErrorHandling(app, sendJsonApiError);
    acceptJsonBodies(app, ['application/json', S.JSON_API]);
    // Responses and reviews are one tenant's data: no shared cache may keep them (RFC 9111 §5.2.2.5).
    app.addHook('onSend', (_request, reply, _payload, done) => {
      reply.header('cache-control', 'no-store');
      done();
    });
    const h = responseHandlers(deps);
    const op = operation(deprecated);

    // Authentication before validation, so a request without a token gets 401 first; charging
    // after it, so a bad token or passkey never consumes anyone's allowance.
    const onRequest = [
      ...(deprecated ? [announceDeprecation(CONTENTMANAGEMENT_DEPRECATION)] : []),
      authenticateBearer(deps),
      authenticatePasskey(deps, 'response'),
      chargePasskey(deps),
    ];
    const preHandler = [answerJsonApi];
    /** Steps and OpenAPI metadata of one operation; `plain` skips the JSON:API media type. */
    const route = <T extends object>(
      operationId: keyof typeof SUMMARIES,
      schema: T,
      steps: { plain?: boolean; document?: 'create' | 'update' } = {},
    ) => ({
      onRequest,
      ...(steps.document ? { preValidation: [readResourceDocument(steps.document)] } : {}),
      ...(steps.plain ? {} : { preHandler }),
      schema: op(operationId, schema),
    });
    const R = '/clientResponses';

    app.get(
      `${R}/:client/reviews/:reviewId`,
      route('listReviewResponses', { ...S.OnReview, response: ok(S.ClientResponseCollection) }),
      h.listReviewResponses,
    );
    app.post(
      `${R}/:client/reviews/:reviewId`,
      route(
        'createClientResponse',
        { ...S.CreateResponse, response: ok(S.ClientResponseDocument) },
        { document: 'create' },
      ),
      h.createClientResponse,
    );
    app.post(
      `${R}/reviews/-/responses`,
      route(
        'countReviewResponses',
        {
          ...S.CountResponses,
          response: ok(S.CountsDocument, 'application/json'),
        },
        { plain: true },
      ),
      h.countReviewResponses,
    );
    app.get(
      `${R}/:responseGuid`,
      route('getClientResponse', { ...S.OnResponse, response: ok(S.ClientResponseDocument) }),
      h.getClientResponse,
    );
    app.patch(
      `${R}/:responseGuid`,
      route(
        'updateClientResponse',
        { ...S.UpdateResponse, response: ok(S.ClientResponseDocument) },
        { document: 'update' },
      ),
      h.updateClientResponse,
    );
    app.delete(
      `${R}/:responseGuid`,
      route('deleteClientResponse', { ...S.OnResponse, response: noContent }, { plain: true }),
      h.deleteClientResponse,
    );
    app.get(
      `${R}/:responseGuid/author`,
      route('getClientResponseAuthor', { ...S.OnResponse, response: ok(S.AuthorDocument) }),
      h.getAuthor,
    );
    app.get(
      `${R}/:responseGuid/relationships/author`,
      route('getClientResponseAuthorRelationship', { ...S.OnResponse, response: ok(S.AuthorDocument) }),
      h.getAuthorRelationship,
    );
    app.get(
      `${R}/:responseGuid/review`,
      route('getClientResponseReview', { ...S.OnResponse, response: ok(S.ReviewDocument) }),
      h.getReview,
    );
    app.get(
      `${R}/:responseGuid/relationships/review`,
      route('getClientResponseReviewRelationship', {
        ...S.OnResponse,
        response: ok(S.ReviewRelationshipDocument),
      }),
      h.getReviewRelationship,
    );
  };
}

const SUMMARIES = {
  listReviewResponses: 'List the responses to a review',
  createClientResponse: 'Answer a review (200, as the public system does)',
  countReviewResponses: 'Count the responses to each review of a list (at most 1000)',
  getClientResponse: 'Get a response',
  updateClientResponse: 'Change some attributes of a response',
  deleteClientResponse: 'Delete a response (204 also when there is none)',
  getClientResponseAuthor: 'Get the author of a response (docs/interface.md §4.1)',
  getClientResponseAuthorRelationship: 'Get the author relationship of a response',
  getClientResponseReview: 'Get the review a response answers',
  getClientResponseReviewRelationship: 'Get the review relationship of a response',
} as const;

const CONTENTMANAGEMENT_DEPRECATION = {
  since: CONTENTMANAGEMENT_DEPRECATED_SINCE,
  prefix: '/contentmanagement/',
  successorPrefix: '/response/',
};

/** JSON:API §5.1: documents are exchanged as application/vnd.api+json. */
function answerJsonApi(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.type(S.JSON_API);
  done();
}

const errorResponses = {
  '4xx': {
    description: "JSON:API error document, with the public system's httpCode, requestURI, field and message",
    content: { [S.JSON_API]: { schema: S.ErrorDocument } },
  },
  '5xx': {
    description: 'Server error; never shows internals',
    content: { [S.JSON_API]: { schema: S.ErrorDocument } },
  },
};

function ok(schema: TSchema, mediaType: string = S.JSON_API) {
  return { 200: { description: 'Success', content: { [mediaType]: { schema } } }, ...errorResponses };
}

const noContent = { 204: { description: 'Deleted, or nothing to delete', type: 'null' }, ...errorResponses };

/** OpenAPI metadata: the deprecated prefix gets its own operation ids and `deprecated: true`. */
function operation(deprecated: boolean) {
  return <T extends object>(operationId: keyof typeof SUMMARIES, schema: T) => ({
    operationId: deprecated ? `${operationId}ViaContentmanagement` : operationId,
    summary: SUMMARIES[operationId],
    tags: [deprecated ? 'Response API (deprecated /contentmanagement prefix)' : 'Response API'],
    ...(deprecated ? { deprecated: true } : {}),
    security: [{ bearer: [], passkey: [] }],
    ...schema,
  });
}
