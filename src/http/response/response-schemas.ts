import { type Static, type TSchema, Type } from 'typebox';
import { CLIENT_NAME_RE } from '../../domain/client.js';
import {
  DEPARTMENT_MAX_CHARS,
  RESPONSE_BY_MAX_CHARS,
  RESPONSE_MAX_CHARS,
} from '../../domain/response-attributes.js';
import { REVIEW_ID_RE } from '../../domain/review-record.js';
import { MAX_COUNTED_REVIEWS } from '../../services/response/count-review-responses.js';
import { PAGE_QUERY } from './page-query.js';

/**
 * Request and response schemas of the Response API. They validate input, drive serialization and
 * generate the OpenAPI document, so the three cannot drift apart.
 */

export const JSON_API = 'application/vnd.api+json';

const strict = { additionalProperties: false } as const;
const Url = Type.String({ format: 'uri' });
const Timestamp = Type.String({ format: 'date-time' });

// --- requests ------------------------------------------------------------------------------

const PasskeyQuery = Type.Object({
  passkey: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      'Response API passkey of the application; each call counts against its rate limit and daily quota',
  }),
});

const GuidParams = Type.Object({
  // A format rather than GUID_PATTERN: the 400 then says "must match format uuid", not a regex.
  responseGuid: Type.String({
    format: 'uuid',
    description: 'GUID of the client response',
    examples: ['0b6f3c2e-4d1a-4f7e-9a43-5c2d8e1f7a90'],
  }),
});

const ReviewParams = Type.Object({
  client: Type.String({
    pattern: CLIENT_NAME_RE.source,
    description: 'Client instance name',
    examples: ['Acme-EN_GB'],
  }),
  reviewId: Type.String({
    pattern: REVIEW_ID_RE.source,
    description: 'Id of the review',
    examples: ['demo-acme-en_gb-1'],
  }),
});

const Department = Type.String({ minLength: 1, maxLength: DEPARTMENT_MAX_CHARS });
const ResponseText = Type.String({ minLength: 1, maxLength: RESPONSE_MAX_CHARS });
const ResponseBy = Type.Union([Type.String({ maxLength: RESPONSE_BY_MAX_CHARS }), Type.Null()], {
  description: 'Name of the person answering; defaults to the application name as author',
});

/** JSON:API resource type of a client response, in documents read and written. */
export const CLIENT_RESPONSE_TYPE = 'clientResponse';

const NewAttributes = Type.Object(
  { department: Department, response: ResponseText, responseBy: Type.Optional(ResponseBy) },
  strict,
);

const AttributeChanges = Type.Object(
  {
    department: Type.Optional(Department),
    response: Type.Optional(ResponseText),
    responseBy: Type.Optional(ResponseBy),
  },
  { ...strict, minProperties: 1 },
);

const ResourceType = Type.Literal(CLIENT_RESPONSE_TYPE, {
  description: 'Any other type is answered 409 Conflict (JSON:API 1.1 §7.1.2, §7.2.3)',
});

const JSON_API_OR_FLAT =
  'A JSON:API document whose primary data is a clientResponse resource object, or the public ' +
  "system's flat form with `attributes` at the top; exactly one of `data` and `attributes`.";

/**
 * JSON:API 1.1 §7.1: a new resource, without an id (client-generated ids are answered 403). Both
 * members are optional here only because either form may be sent; read-resource-document.ts
 * requires exactly one before validation.
 */
const NewResponseBody = Type.Object(
  {
    data: Type.Optional(Type.Object({ type: ResourceType, attributes: NewAttributes }, strict)),
    attributes: Type.Optional(NewAttributes),
  },
  {
    description: JSON_API_OR_FLAT,
    examples: [
      {
        data: {
          type: CLIENT_RESPONSE_TYPE,
          attributes: {
            department: 'Customer care',
            response: 'Thank you for your review!',
            responseBy: 'Sam',
          },
        },
      },
    ],
  },
);

/** JSON:API 1.1 §7.2: the id, when given, must be the one in the URL (409 otherwise). */
const ResponseChangesBody = Type.Object(
  {
    data: Type.Optional(
      Type.Object(
        {
          type: ResourceType,
          id: Type.Optional(Type.String({ description: 'The GUID in the URL; another one is 409 Conflict' })),
          attributes: AttributeChanges,
        },
        strict,
      ),
    ),
    attributes: Type.Optional(AttributeChanges),
  },
  {
    description: JSON_API_OR_FLAT,
    examples: [
      { data: { type: CLIENT_RESPONSE_TYPE, attributes: { response: 'Thank you, we have fixed it.' } } },
    ],
  },
);

const CountsBody = Type.Object(
  {
    reviewIds: Type.Array(Type.String({ pattern: REVIEW_ID_RE.source }), { maxItems: MAX_COUNTED_REVIEWS }),
  },
  { examples: [{ reviewIds: ['demo-acme-en_gb-1', 'demo-acme-en_gb-2'] }] },
);

/** What each kind of operation reads from a request; the routes add the documents they answer. */
const OnReview = { params: ReviewParams, querystring: PasskeyQuery };
export const ListResponses = {
  params: ReviewParams,
  querystring: Type.Object({ ...PasskeyQuery.properties, ...PAGE_QUERY }),
};
export const OnResponse = { params: GuidParams, querystring: PasskeyQuery };
export const CreateResponse = { ...OnReview, body: NewResponseBody };
export const UpdateResponse = { ...OnResponse, body: ResponseChangesBody };
export const CountResponses = { querystring: PasskeyQuery, body: CountsBody };

// --- responses -----------------------------------------------------------------------------

const RelationshipLinks = Type.Object({ self: Url, related: Url }, strict);

const AuthorIdentifier = Type.Object({ type: Type.Literal('author'), id: Type.String() }, strict);

/** REFERENCE puts clientName beside type and id; JSON:API 1.0 allows only `meta` there. */
const ReviewIdentifier = Type.Object(
  {
    type: Type.Literal('review'),
    id: Type.String(),
    meta: Type.Object({ clientName: Type.String() }, strict),
  },
  strict,
);

const ClientResponseResource = Type.Object(
  {
    type: Type.Literal(CLIENT_RESPONSE_TYPE),
    id: Type.String({ format: 'uuid' }),
    attributes: Type.Object(
      {
        department: Type.String(),
        response: Type.String(),
        responseBy: Type.Union([Type.String(), Type.Null()]),
        responseSource: Type.String({ description: 'Name of the OAuth application that wrote it' }),
        responderClient: Type.String({ description: 'Client instance that answers' }),
        created: Timestamp,
        updated: Timestamp,
      },
      strict,
    ),
    relationships: Type.Object(
      {
        author: Type.Object({ links: RelationshipLinks, data: AuthorIdentifier }, strict),
        review: Type.Object({ links: RelationshipLinks, data: ReviewIdentifier }, strict),
      },
      strict,
    ),
    links: Type.Object({ self: Url }, strict),
  },
  strict,
);

export const ClientResponseDocument = Type.Object(
  { data: ClientResponseResource, links: Type.Object({ self: Url }, strict) },
  { ...strict, $id: 'ClientResponseDocument' },
);

export const ClientResponseCollection = Type.Object(
  {
    data: Type.Array(ClientResponseResource),
    links: Type.Object(
      {
        self: Url,
        next: Type.Optional(
          Type.String({ format: 'uri', description: 'The next page; absent on the last one' }),
        ),
      },
      strict,
    ),
  },
  { ...strict, $id: 'ClientResponseCollection' },
);

/** docs/interface.md §4.1: `data` (type, id) and `links` (self, related). */
export const AuthorDocument = Type.Object(
  { data: AuthorIdentifier, links: RelationshipLinks },
  { ...strict, $id: 'AuthorDocument' },
);

export const ReviewRelationshipDocument = Type.Object(
  { data: ReviewIdentifier, links: RelationshipLinks },
  { ...strict, $id: 'ReviewRelationshipDocument' },
);

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ReviewDocument = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal('review'),
        id: Type.String(),
        attributes: Type.Object(
          {
            clientName: Type.String(),
            rating: Nullable(Type.Integer({ minimum: 1, maximum: 5 })),
            title: Nullable(Type.String()),
            text: Nullable(Type.String()),
            submittedAt: Timestamp,
          },
          strict,
        ),
      },
      strict,
    ),
    links: RelationshipLinks,
  },
  { ...strict, $id: 'ReviewDocument' },
);

/** The public system's shape, which is not a JSON:API document. */
export const CountsDocument = Type.Object(
  {
    counts: Type.Array(
      Type.Object({ reviewId: Type.String(), responseCount: Type.Integer({ minimum: 0 }) }, strict),
    ),
  },
  { ...strict, $id: 'ResponseCounts' },
);

/** src/http/errors/render.ts sendJsonApiError: JSON:API error objects plus the public members. */
export const ErrorDocument = Type.Object(
  {
    httpCode: Type.Integer(),
    requestURI: Type.String(),
    message: Type.String(),
    errors: Type.Array(
      Type.Object({
        status: Type.String(),
        code: Type.String(),
        title: Type.String(),
        detail: Type.String(),
        source: Type.Optional(
          Type.Object({
            pointer: Type.Optional(Type.String()),
            parameter: Type.Optional(Type.String()),
            header: Type.Optional(Type.String()),
          }),
        ),
        field: Type.Optional(Type.String()),
        message: Type.String(),
      }),
    ),
  },
  { $id: 'JsonApiErrorDocument' },
);

export type ClientResponseDocument = Static<typeof ClientResponseDocument>;
export type ClientResponseCollection = Static<typeof ClientResponseCollection>;
export type AuthorDocument = Static<typeof AuthorDocument>;
export type ReviewDocument = Static<typeof ReviewDocument>;
export type ReviewRelationshipDocument = Static<typeof ReviewRelationshipDocument>;
export type CountsDocument = Static<typeof CountsDocument>;
