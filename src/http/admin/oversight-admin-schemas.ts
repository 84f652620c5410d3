import { type TSchema, Type } from 'typebox';
import type { AuditEvent } from '../../domain/audit-event.js';
import { IDENTIFIER_KINDS, type IdentifierKind } from '../../domain/identifiers.js';
import { iso, isoOrNull } from '../../domain/instant.js';
import type { PrivacyRequestOverview } from '../../services/privacy/list-environment-privacy-requests.js';
import { pageOf } from './admin-page.js';
import { Instant, InstantOrNull } from './admin-schemas.js';

const RequestType = Type.Union([Type.Literal('forget'), Type.Literal('access')]);
const RequestStatus = Type.Union([Type.Literal('PENDING'), Type.Literal('COMPLETED')]);

/** `order`: which way a list runs (domain/page-cursor.ts); the cursor of `next` keeps to it. */
export const ORDER_QUERY = {
  order: Type.Optional(
    Type.Union([Type.Literal('oldest'), Type.Literal('newest')], {
      description: 'oldest first (default) or newest first; the `next` link keeps it',
    }),
  ),
};

export const PrivacyRequestFilters = {
  type: Type.Optional(RequestType),
  status: Type.Optional(RequestStatus),
  applicationId: Type.Optional(
    Type.String({ maxLength: 100, description: 'Only this application (its id or client id)' }),
  ),
};

// No identifier, masked or hashed: an operator oversees the requests, not the people they name.
const AdminPrivacyRequest = Type.Object(
  {
    id: Type.String(),
    type: RequestType,
    status: RequestStatus,
    applicationId: Type.String({ description: 'The application that filed it' }),
    clientNames: Type.Array(Type.String(), { description: 'Client instances it covers, by name' }),
    submittedAt: Instant,
    dueAt: Instant,
    completedAt: InstantOrNull,
  },
  { $id: 'AdminPrivacyRequest', additionalProperties: false },
);
export const AdminPrivacyRequestPage = pageOf(AdminPrivacyRequest, 'AdminPrivacyRequestPage');

const identifierProperties = Object.fromEntries(
  IDENTIFIER_KINDS.map((kind) => [kind, Type.Optional(Type.String({ maxLength: 320 }))]),
) as Record<IdentifierKind, ReturnType<typeof Type.Optional<ReturnType<typeof Type.String>>>>;

export const NewSuppressionLift = Type.Object(
  {
    identifiers: Type.Object(identifierProperties, {
      additionalProperties: false,
      description:
        'Any identifier of the forgotten person, named as in a Privacy API forget request; used to find the suppression, never kept, logged or audited',
    }),
    reason: Type.String({ maxLength: 2000, description: 'Why it is lifted; kept in the lift record' }),
    clientNames: Type.Optional(
      Type.Array(Type.String({ maxLength: 100 }), {
        maxItems: 1000,
        description: 'Only in these client instances (default: every one of the environment)',
      }),
    ),
    liftedBy: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Who lifts it (default: the caller)' }),
    ),
  },
  { additionalProperties: false },
);
export const SuppressionLifts = Type.Object(
  {
    lifted: Type.Array(
      Type.Object(
        {
          id: Type.String({ description: 'The lift record' }),
          clientName: Type.String(),
          identifiers: Type.Integer({ description: "How many of the person's identifiers it freed" }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'SuppressionLifts', additionalProperties: false },
);

export const NewSigningKey = Type.Object(
  {
    retirePrevious: Type.Optional(
      Type.Boolean({ description: 'Refuse tokens signed with older keys at once (a leaked key)' }),
    ),
  },
  { additionalProperties: false },
);
export const RotatedSigningKey = Type.Object(
  {
    keyId: Type.String(),
    previousKeysRetireAt: Instant,
  },
  { $id: 'RotatedSigningKey', additionalProperties: false },
);

export const AuditFilters = {
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or after this time' })),
  action: Type.Optional(Type.String({ maxLength: 100, description: 'e.g. application.revoked' })),
  target: Type.Optional(Type.String({ maxLength: 200, description: 'Only events about this id' })),
};

const AdminAuditEvent = Type.Object(
  {
    id: Type.String(),
    occurredAt: Instant,
    actor: Type.String({ description: 'cli:<user>, admin-token:<id>, application:<id>, worker:<owner> ...' }),
    action: Type.String(),
    targetType: Type.String(),
    targetId: Type.String(),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Ids, counts and settings; never personal data or a credential',
    }),
  },
  { $id: 'AdminAuditEvent', additionalProperties: false },
);
export const AdminAuditEventPage = pageOf(AdminAuditEvent, 'AdminAuditEventPage');

export const privacyRequestView = (r: PrivacyRequestOverview) => ({
  id: r.id,
  type: r.type,
  status: r.status,
  applicationId: r.applicationId,
  clientNames: [...r.clientNames],
  submittedAt: iso(r.submittedAt),
  dueAt: iso(r.dueAt),
  completedAt: isoOrNull(r.completedAt),
});

export const auditEventView = (e: AuditEvent) => ({
  id: e.id,
  occurredAt: iso(e.occurredAt),
  actor: e.actor,
  action: e.action,
  targetType: e.targetType,
  targetId: e.targetId,
  details: { ...e.details },
});

export const OVERSIGHT_TAG = {
  name: 'Oversight',
  description:
    'Privacy requests across applications (never identifiers), suppression lifts, token signing keys and the audit trail',
};

/** The schemas its answers refer to by name (admin-openapi.ts registers them). */
export const OVERSIGHT_ADMIN_SCHEMAS: readonly TSchema[] = [
  AdminPrivacyRequest,
  AdminPrivacyRequestPage,
  SuppressionLifts,
  RotatedSigningKey,
  AdminAuditEvent,
  AdminAuditEventPage,
];
