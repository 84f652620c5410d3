import type { TSchema } from 'typebox';
import { alwaysAnswered } from '../api-routes-setup.js';
import { taggedOperations } from '../route-table.js';
import * as S from './response-schemas.js';

/** Why each status is sent, by kind of operation. */
const ALWAYS = alwaysAnswered('Response API');
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
  400: `${ON_REVIEW[400]}; or the body is invalid (field and message say which member), the review is unknown, this application already answered it (Duplicate response), or the Idempotency-Key is malformed`,
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

/** A 200 with a JSON:API document, or with a plain JSON body. */
const ok = (schema: TSchema, mediaType = S.JSON_API) => ({ status: 200, mediaType, schema });

/**
 * Each operation of the Response API, by operation id: its summary, request parts, success
 * answer and why it sends each error status (docs/interface.md §4.1).
 */
export const RESPONSE_OPERATIONS = taggedOperations('Response API', {
  listReviewResponses: {
    summary: 'List the responses to a review, oldest first, a page at a time',
    request: S.ListResponses,
    answer: ok(S.ClientResponseCollection),
    errors: { ...ON_REVIEW, 400: `${ON_REVIEW[400]}; or page[size] or page[after] is invalid` },
  },
  createClientResponse: {
    summary: 'Answer a review (200, as the public system does)',
    request: S.CreateResponse,
    idempotent: true,
    answer: ok(S.ClientResponseDocument),
    errors: CREATE,
  },
  countReviewResponses: {
    summary: 'Count the responses to each review of a list (at most 1000)',
    request: S.CountResponses,
    answer: ok(S.CountsDocument, 'application/json'),
    errors: COUNT,
  },
  getClientResponse: {
    summary: 'Get a response',
    request: S.OnResponse,
    answer: ok(S.ClientResponseDocument),
    errors: ON_RESPONSE,
  },
  updateClientResponse: {
    summary: 'Change some attributes of a response',
    request: S.UpdateResponse,
    answer: ok(S.ClientResponseDocument),
    errors: UPDATE,
  },
  deleteClientResponse: {
    summary: 'Delete a response (204 also when there is none)',
    request: S.OnResponse,
    answer: {
      status: 204,
      mediaType: S.JSON_API,
      schema: null,
      description: 'Deleted, or there was nothing to delete',
    },
    errors: { ...ALWAYS, 400: ON_RESPONSE[400] },
  },
  getClientResponseAuthor: {
    summary: 'Get the author of a response',
    request: S.OnResponse,
    answer: ok(S.AuthorDocument),
    errors: ON_RESPONSE,
  },
  getClientResponseAuthorRelationship: {
    summary: 'Get the author relationship of a response',
    request: S.OnResponse,
    answer: ok(S.AuthorDocument),
    errors: ON_RESPONSE,
  },
  getClientResponseReview: {
    summary: 'Get the review a response answers',
    request: S.OnResponse,
    answer: ok(S.ReviewDocument),
    errors: ON_RESPONSE,
  },
  getClientResponseReviewRelationship: {
    summary: 'Get the review relationship of a response',
    request: S.OnResponse,
    answer: ok(S.ReviewRelationshipDocument),
    errors: ON_RESPONSE,
  },
});
