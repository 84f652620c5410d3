import { Type } from 'typebox';
import { adminOperations, CREATE_ERRORS } from './admin-operation.js';
import { PAGE_HEADERS, PAGE_QUERY } from './admin-page.js';
import { EnvironmentParams } from './admin-schemas.js';
import * as S from './oversight-admin-schemas.js';

/**
 * What operators oversee across applications: privacy requests (never whom they name), lifting a
 * forgotten person's suppression, the token signing keys and the audit trail (docs/operations.md,
 * Admin API).
 */
export const oversightOperations = adminOperations('Oversight', {
  listPrivacyRequests: {
    summary: 'List the privacy requests of every application of the environment, by submission time',
    scope: 'privacy:read',
    request: {
      params: EnvironmentParams,
      querystring: Type.Object(
        { ...S.PrivacyRequestFilters, ...S.ORDER_QUERY, ...PAGE_QUERY },
        { additionalProperties: false },
      ),
    },
    answer: { status: 200, schema: S.AdminPrivacyRequestPage, headers: PAGE_HEADERS },
    errors: {
      400: 'A filter, the limit or the cursor is invalid',
      404: 'The application named by applicationId is not one of this environment',
    },
  },
  liftSuppression: {
    summary: "Let a forgotten person's reviews be imported again in some client instances",
    scope: 'privacy:lift',
    idempotent: true,
    request: { params: EnvironmentParams, body: S.NewSuppressionLift },
    answer: { status: 201, schema: S.SuppressionLifts, description: 'Lifted' },
    errors: {
      400: `${CREATE_ERRORS[400]}: no identifier, an invalid one, no reason, or a client not in this environment`,
      404: 'No forgotten person matches these identifiers in these client instances',
    },
  },
  rotateSigningKey: {
    summary: 'Add a token signing key (of both environments); older keys verify until retired',
    scope: 'keys:write',
    idempotent: true,
    request: { body: S.NewSigningKey },
    answer: { status: 201, schema: S.RotatedSigningKey, description: 'Created' },
    errors: { 400: `${CREATE_ERRORS[400]} (send {} for the defaults)` },
  },
  listAuditEvents: {
    summary: 'Read the audit trail (administrative actions, privacy request changes), by time',
    scope: 'audit:read',
    request: {
      querystring: Type.Object(
        { ...S.AuditFilters, ...S.ORDER_QUERY, ...PAGE_QUERY },
        { additionalProperties: false },
      ),
    },
    answer: { status: 200, schema: S.AdminAuditEventPage, headers: PAGE_HEADERS },
    errors: { 400: 'A filter, the limit or the cursor is invalid' },
  },
});
