import type { TSchema } from 'typebox';
import { AuthorizationServerMetadata, OAuthError, TokenResponse } from '../auth/auth-schemas.js';
import { Problem } from '../errors/error-schemas.js';
import { AccessExportDocument, RequestList, RequestRecord } from '../privacy/privacy-schemas.js';
import {
  AuthorDocument,
  ClientResponseCollection,
  ClientResponseDocument,
  CountsDocument,
  ErrorDocument,
  ReviewDocument,
  ReviewRelationshipDocument,
} from '../response/response-schemas.js';
import { PrivacyRequestEvent } from './webhook-definitions.js';

/**
 * Every schema answers refer to by name (schema-ref.ts). build-server.ts registers them before
 * any route, so Fastify resolves the references when it compiles serializers, and /openapi.json
 * lists them under components.schemas.
 */
export const COMPONENT_SCHEMAS: readonly TSchema[] = [
  ErrorDocument,
  Problem,
  OAuthError,
  TokenResponse,
  AuthorizationServerMetadata,
  ClientResponseDocument,
  ClientResponseCollection,
  AuthorDocument,
  ReviewDocument,
  ReviewRelationshipDocument,
  CountsDocument,
  RequestRecord,
  RequestList,
  AccessExportDocument,
  PrivacyRequestEvent,
];
