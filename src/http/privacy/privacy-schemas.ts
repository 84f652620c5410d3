import { Type } from 'typebox';
import { CLIENT_NAME_RE } from '../../domain/client.js';
import { IDENTIFIER_KINDS, type IdentifierKind } from '../../domain/identifiers.js';
import { MAX_LIST_LIMIT } from '../../services/privacy/list-privacy-requests.js';
import { ref } from '../openapi/schema-ref.js';

const IDENTIFIER_DESCRIPTIONS: Record<IdentifierKind, string> = {
  authorId: 'Client-controlled user identifier used for content submission',
  emailAddress: "The individual's email address (case-insensitive)",
  phoneNumber: "The individual's phone number; spaces, dots, dashes and brackets are ignored",
  instagramUsername: "The individual's Instagram username (a leading @ is ignored)",
  facebookUsername: "The individual's Facebook username",
  twitterUsername: "The individual's Twitter username",
  youtubeChannelId: "The individual's YouTube channel id",
  youtubeUsername: "The individual's YouTube username",
  vimeoUsername: "The individual's Vimeo username",
};

const identifierProperties = Object.fromEntries(
  IDENTIFIER_KINDS.map((kind) => [
    kind,
    Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: IDENTIFIER_DESCRIPTIONS[kind] })),
  ]),
) as Record<IdentifierKind, ReturnType<typeof Type.Optional<ReturnType<typeof Type.String>>>>;

const passkey = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'Privacy API passkey of the application; each call counts against its rate limit and daily quota',
});

/**
 * docs/interface.md §2.2. Unknown properties are rejected: a misspelt identifier name must not silently file a
 * request for nobody.
 */
const CreateRequestBody = Type.Object(
  {
    ...identifierProperties,
    clientNames: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        minItems: 1,
        maxItems: 100,
        description:
          'Client names the request is scoped to; defaults to every client the application may use',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { emailAddress: 'alice@example.com', authorId: 'alice-1' },
      { twitterUsername: 'chloe_x', clientNames: ['Acme-EN_GB'] },
    ],
  },
);

const PasskeyQuery = Type.Object({ passkey });

const ListQuery = Type.Object(
  {
    passkey,
    // Request ids are UUIDs; anything else could only ever match nothing (and would be echoed in links).
    id: Type.Optional(Type.String({ format: 'uuid', description: 'Id of one request' })),
    status: Type.Optional(Type.Union([Type.Literal('PENDING'), Type.Literal('COMPLETED')])),
    clientName: Type.Optional(
      Type.String({ pattern: CLIENT_NAME_RE.source, description: 'Client instance name' }),
    ),
    submittedAfter: Type.Optional(Type.String({ format: 'date-time' })),
    completedAfter: Type.Optional(Type.String({ format: 'date-time' })),
    ...identifierProperties,
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, description: 'Page size; 100 when absent' }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 400, description: 'nextCursor of a previous page' }),
    ),
  },
  { additionalProperties: false },
);

const IdParams = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'Id of the request, as answered when it was filed',
    examples: ['5e0f7a52-8c1d-4b3a-a2f9-0d6c4e8b1f23'],
  }),
});

const Timestamp = Type.String({ format: 'date-time' });

/** What each operation reads from a request; the routes add the documents they answer. */
export const CreateRequest = {
  querystring: PasskeyQuery,
  body: CreateRequestBody,
};
export const ListRequests = { querystring: ListQuery };
export const OneRequest = { params: IdParams, querystring: PasskeyQuery };
export const ExportRequest = {
  params: IdParams,
  querystring: Type.Object({
    passkey,
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('zip')], {
        description: 'json (the default) or zip; without it, `Accept: application/zip` asks for the archive',
      }),
    ),
  }),
};

export const RequestRecord = Type.Object(
  {
    id: Type.String(),
    type: Type.Union([Type.Literal('forgetRequest'), Type.Literal('accessRequest')]),
    status: Type.Union([Type.Literal('PENDING'), Type.Literal('COMPLETED')]),
    submittedAt: Timestamp,
    dueAt: Type.String({
      format: 'date-time',
      description: 'One calendar month after submission (GDPR Art. 12(3))',
    }),
    completedAt: Type.Union([Timestamp, Type.Null()]),
    clientNames: Type.Array(Type.String()),
    identifiers: Type.Array(
      Type.Object({
        type: Type.String(),
        value: Type.Union([Type.String(), Type.Null()], {
          description: 'Masked value; null once the subject has been erased',
        }),
      }),
    ),
    receipt: Type.Union([
      Type.Object({
        startedAt: Type.Union([Timestamp, Type.Null()]),
        completedAt: Timestamp,
        clients: Type.Array(
          Type.Object({
            clientName: Type.String(),
            reviews: Type.Integer(),
            clientResponses: Type.Integer(),
            profileFields: Type.Integer(),
            accessExports: Type.Integer({
              description: 'Sections of earlier access exports removed because they held the person',
            }),
          }),
        ),
      }),
      Type.Null(),
    ]),
    exportExpiresAt: Type.Optional(Type.Union([Timestamp, Type.Null()])),
    links: Type.Object({ self: Type.String(), export: Type.Optional(Type.String()) }),
  },
  { $id: 'PrivacyRequest' },
);

export const RequestList = Type.Object(
  {
    requests: Type.Array(ref(RequestRecord)),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
    links: Type.Object({ self: Type.String(), next: Type.Optional(Type.String()) }),
  },
  { $id: 'PrivacyRequestList' },
);

const ExportedReview = Type.Object({
  id: Type.String(),
  rating: Type.Union([Type.Integer(), Type.Null()]),
  title: Type.Union([Type.String(), Type.Null()]),
  text: Type.Union([Type.String(), Type.Null()]),
  submittedAt: Timestamp,
  author: Type.Object({ name: Type.Optional(Type.String()), ...identifierProperties }),
  clientResponses: Type.Array(
    Type.Object({
      id: Type.String(),
      department: Type.String(),
      response: Type.String(),
      responseBy: Type.Union([Type.String(), Type.Null()]),
      responseSource: Type.String(),
      created: Timestamp,
      updated: Timestamp,
    }),
  ),
});

/** The access export: one section per client instance (docs/design.md, Privacy API). */
export const AccessExportDocument = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('accessExport'),
    generatedAt: Timestamp,
    expiresAt: Timestamp,
    clients: Type.Array(Type.Object({ clientName: Type.String(), reviews: Type.Array(ExportedReview) })),
  },
  { $id: 'AccessExport' },
);

export { Problem } from '../errors/error-schemas.js';
