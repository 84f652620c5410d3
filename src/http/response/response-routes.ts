import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { TSchema } from 'typebox';
import { acceptJsonBodies } from '../accept-json-bodies.js';
import { installErrorHandling } from '../errors/install-error-handling.js';
import { sendJsonApiError } from '../errors/render.js';
import type { HttpDeps } from '../http-deps.js';
import {
  DEPRECATION_HEADERS,
  type DocumentedStatus,
  type ErrorAnswers,
  errorAnswers,
  RATE_LIMIT_HEADERS,
  successAnswer,
} from '../openapi/documented-answers.js';
import { ref } from '../openapi/schema-ref.js';
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
      chargePasskey(deps, 'response'),
    ];
    const preHandler = [answerJsonApi];
    // Every answer tells the passkey's allowance; under the old prefix, also its deprecation.
    const everyAnswer = { ...RATE_LIMIT_HEADERS, ...(deprecated ? DEPRECATION_HEADERS : {}) };
    const ok = (schema: TSchema, mediaType = S.JSON_API) => ({
      200: successAnswer('Success', { mediaType, schema: ref(schema) }, everyAnswer),
    });
    /** Steps and OpenAPI metadata of one operation; `plain` skips the JSON:API media type. */
    const route = <T extends object>(
      operationId: keyof typeof SUMMARIES,
      schema: T,
      answers: {
        success: Record<number, unknown>;
        errors: Partial<Record<DocumentedStatus, string>>;
        plain?: boolean;
        document?: 'create' | 'update';
      },
    ) => ({
      onRequest,
      ...(answers.document ? { preValidation: [readResourceDocument(answers.document)] } : {}),
      ...(answers.plain ? {} : { preHandler }),
      schema: op(operationId, {
        ...schema,
        ...('body' in schema ? { consumes: [S.JSON_API, 'application/json'] } : {}),
        response: {
          ...answers.success,
          ...errorAnswers(JSON_API_ERROR_ANSWERS, answers.errors, {
            charged: true,
            extraHeaders: everyAnswer,
          }),
        },
      }),
    });
    const R = '/clientResponses';

    app.get(
      `${R}/:client/reviews/:reviewId`,
      route('listReviewResponses', S.OnReview, {
        success: ok(S.ClientResponseCollection),
        errors: ON_REVIEW,
      }),
      h.listReviewResponses,
    );
    app.post(
      `${R}/:client/reviews/:reviewId`,
      route('createClientResponse', S.CreateResponse, {
        success: ok(S.ClientResponseDocument),
        errors: CREATE,
        document: 'create',
      }),
      h.createClientResponse,
    );
    app.post(
      `${R}/reviews/-/responses`,
      route('countReviewResponses', S.CountResponses, {
        success: ok(S.CountsDocument, 'application/json'),
        errors: COUNT,
        plain: true,
      }),
      h.countReviewResponses,
    );
    app.get(
      `${R}/:responseGuid`,
      route('getClientResponse', S.OnResponse, {
        success: ok(S.ClientResponseDocument),
        errors: ON_RESPONSE,
      }),
      h.getClientResponse,
    );
    app.patch(
      `${R}/:responseGuid`,
      route('updateClientResponse', S.UpdateResponse, {
        success: ok(S.ClientResponseDocument),
        errors: UPDATE,
        document: 'update',
      }),
      h.updateClientResponse,
    );
    app.delete(
      `${R}/:responseGuid`,
      route('deleteClientResponse', S.OnResponse, {
        success: { 204: successAnswer('Deleted, or there was nothing to delete', null, everyAnswer) },
        errors: { ...ALWAYS, 400: ON_RESPONSE[400] },
        plain: true,
      }),
      h.deleteClientResponse,
    );
    app.get(
      `${R}/:responseGuid/author`,
      route('getClientResponseAuthor', S.OnResponse, { success: ok(S.AuthorDocument), errors: ON_RESPONSE }),
      h.getAuthor,
    );
    app.get(
      `${R}/:responseGuid/relationships/author`,
      route('getClientResponseAuthorRelationship', S.OnResponse, {
        success: ok(S.AuthorDocument),
        errors: ON_RESPONSE,
      }),
      h.getAuthorRelationship,
    );
    app.get(
      `${R}/:responseGuid/review`,
      route('getClientResponseReview', S.OnResponse, { success: ok(S.ReviewDocument), errors: ON_RESPONSE }),
      h.getReview,
    );
    app.get(
      `${R}/:responseGuid/relationships/review`,
      route('getClientResponseReviewRelationship', S.OnResponse, {
        success: ok(S.ReviewRelationshipDocument),
        errors: ON_RESPONSE,
      }),
      h.getReviewRelationship,
    );
  };
}

const JSON_API_ERROR_ANSWERS: ErrorAnswers = {
  mediaType: S.JSON_API,
  schema: ref(S.ErrorDocument),
  challenge: 'bearer',
  otherClientErrors:
    '405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ' +
    'ALLOWED_HOSTS), 431 (header section too large)',
};

/** Why each status is sent, by kind of operation. */
const ALWAYS = {
  400: 'The passkey query parameter is missing or malformed',
  401: 'No bearer token, or one that is malformed, expired or revoked',
  403: 'Developer Inactive: the passkey is unknown, inactive, or not a Response API passkey of this application',
  429: 'The passkey is over its rate limit (per minute) or its daily quota',
  503: 'The database or the rate-limit store cannot serve right now, or the server is shutting down',
} as const;
const ON_REVIEW = {
  ...ALWAYS,
  400: `${ALWAYS[400]}; or the client name or review id is malformed`,
  403: `${ALWAYS[403]}; or the application is not granted this client instance`,
};
const ON_RESPONSE = {
  ...ALWAYS,
  400: `${ALWAYS[400]}; or the GUID is malformed`,
  404: 'Client Response Id does not exist (a response of a client the application is not granted is not shown either)',
};
const WITH_BODY = {
  413: 'The body is larger than BODY_LIMIT_BYTES',
  415: 'The Content-Type is neither application/vnd.api+json nor application/json',
};
const CREATE = {
  ...ON_REVIEW,
  ...WITH_BODY,
  400: `${ON_REVIEW[400]}; or the body is invalid (field and message say which member), the review is unknown, or this application already answered it (Duplicate response)`,
  403: `${ON_REVIEW[403]}; or data.id was sent: the server assigns ids`,
  409: 'data.type is not clientResponse',
};
const UPDATE = {
  ...ON_RESPONSE,
  ...WITH_BODY,
  400: `${ON_RESPONSE[400]}; or the body is invalid (field and message say which member)`,
  409: 'data.type is not clientResponse, or data.id is not the GUID in the URL',
};
const COUNT = {
  ...ALWAYS,
  ...WITH_BODY,
  400: `${ALWAYS[400]}; or reviewIds is missing, holds a malformed id, or more than 1000 of them`,
};

const SUMMARIES = {
  listReviewResponses: 'List the responses to a review',
  createClientResponse: 'Answer a review (200, as the public system does)',
  countReviewResponses: 'Count the responses to each review of a list (at most 1000)',
  getClientResponse: 'Get a response',
  updateClientResponse: 'Change some attributes of a response',
  deleteClientResponse: 'Delete a response (204 also when there is none)',
  getClientResponseAuthor: 'Get the author of a response',
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

/** OpenAPI metadata: the deprecated prefix gets its own operation ids and `deprecated: true`. */
function operation(deprecated: boolean) {
  return <T extends object>(operationId: keyof typeof SUMMARIES, schema: T) => ({
    operationId: deprecated ? `${operationId}ViaContentmanagement` : operationId,
    summary: SUMMARIES[operationId],
    tags: [deprecated ? 'Response API (deprecated /contentmanagement prefix)' : 'Response API'],
    ...(deprecated ? { deprecated: true } : {}),
    // The passkey is the operation's required `passkey` query parameter (see openapi-definition.ts).
    security: [{ bearer: [] }],
    ...schema,
  });
}
