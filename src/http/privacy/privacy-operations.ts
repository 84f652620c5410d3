import { type TSchema, Type } from 'typebox';
import type { PrivacyRequestType } from '../../domain/privacy-request.js';
import { alwaysAnswered } from '../api-routes-setup.js';
import { taggedOperations } from '../route-table.js';
import * as S from './privacy-schemas.js';

/** Why each status is sent, by operation. */
const ALWAYS = alwaysAnswered('Privacy API');
const CREATE = {
  ...ALWAYS,
  400: `${ALWAYS[400]}; or the body names no identifier, an invalid one, an unknown member, or a client name the application may not use; or the Idempotency-Key is malformed`,
  409: 'A request for the same end user (any of its identifiers) is already pending',
  413: 'The body is larger than BODY_LIMIT_BYTES',
  415: 'The Content-Type is not application/json',
};
const LIST = { ...ALWAYS, 400: `${ALWAYS[400]}; or a filter, the limit or the cursor is invalid` };
const GET = { ...ALWAYS, 404: 'No such request of this application' };
const EXPORT = {
  ...GET,
  409: 'The request is still PENDING; Retry-After says when to look again',
  410: 'The export has expired (kept for PRIVACY_EXPORT_RETENTION_DAYS) and was deleted',
};

const CREATED_HEADERS = {
  Location: Type.String({ format: 'uri', description: 'URL of the new request (RFC 9110 §10.2.2)' }),
};

const ok = (schema: TSchema) => ({ status: 200, mediaType: 'application/json', schema });

/** Filing a request of one type. */
const create = (type: PrivacyRequestType) => ({
  summary: `File ${type === 'access' ? 'an' : 'a'} ${type} request (409 while one for the same end user is pending)`,
  request: S.CreateRequest,
  idempotent: true as const,
  answer: {
    status: 201,
    description: 'Accepted: PENDING until the worker completes it',
    mediaType: 'application/json',
    schema: S.RequestRecord,
    headers: CREATED_HEADERS,
  },
  errors: CREATE,
});

const list = (type: PrivacyRequestType) => ({
  summary: `List ${type} requests of the last PRIVACY_LIST_DAYS, newest first`,
  request: S.ListRequests,
  answer: ok(S.RequestList),
  errors: LIST,
});

const get = (type: PrivacyRequestType) => ({
  summary: `Get one ${type} request`,
  request: S.OneRequest,
  answer: ok(S.RequestRecord),
  errors: GET,
});

/**
 * The operations of the Privacy API (docs/interface.md §4.3), by operation id: their summaries,
 * request parts, success answers and why each error status is sent.
 */
export const PRIVACY_OPERATIONS = {
  ...taggedOperations('Privacy: forget requests', {
    createForgetRequest: create('forget'),
    listForgetRequests: list('forget'),
    getForgetRequest: get('forget'),
  }),
  ...taggedOperations('Privacy: access requests', {
    createAccessRequest: create('access'),
    listAccessRequests: list('access'),
    getAccessRequest: get('access'),
    downloadAccessExport: {
      summary:
        'Download the export of a completed access request: one JSON document, or a ZIP archive with `?format=zip` or `Accept: application/zip` (409 while pending, 410 once expired)',
      request: S.ExportRequest,
      answer: {
        ...ok(S.AccessExportDocument),
        alternatives: {
          'application/zip': Type.String({
            contentMediaType: 'application/zip',
            description:
              'A folder per client instance with reviews, responses and profile fields, each as JSON and as CSV (docs/privacy.md, Exports)',
          }),
        },
      },
      errors: EXPORT,
      retryAfterOn: [409 as const],
    },
  }),
};
