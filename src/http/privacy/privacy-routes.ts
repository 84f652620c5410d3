import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { PrivacyRequestType } from '../../domain/privacy-request.js';
import { acceptJsonBodies } from '../accept-json-bodies.js';
import { installErrorHandling } from '../errors/install-error-handling.js';
import { sendProblem } from '../errors/render.js';
import type { HttpDeps } from '../http-deps.js';
import {
  type ErrorAnswers,
  errorAnswers,
  RATE_LIMIT_HEADERS,
  successAnswer,
} from '../openapi/documented-answers.js';
import { ref } from '../openapi/schema-ref.js';
import { authenticateBearer } from '../steps/authenticate-bearer.js';
import { authenticatePasskey } from '../steps/authenticate-passkey.js';
import { chargePasskey } from '../steps/charge-passkey.js';
import { privacyHandlers } from './privacy-handlers.js';
import * as S from './privacy-schemas.js';

/**
 * Privacy API under /privacy/v1 (docs/interface.md §4.3; docs/design.md, Privacy API): forget and access requests,
 * created, listed and read by the application that filed them, and the access export download.
 * Errors are RFC 9457 problem details.
 */
export function privacyRoutes(deps: HttpDeps): FastifyPluginAsync {
  return async (plugin) => {
    const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
    installErrorHandling(app, sendProblem);
    // docs/interface.md §4.3: "Content-Type defaults to application/json".
    acceptJsonBodies(app, ['application/json'], { untypedIsJson: true });
    // Records and exports are personal data: no shared cache may keep them (RFC 9111 §5.2.2.5).
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    // Authentication before validation, so a request without a token gets 401 first; charging
    // after it, so a bad token or passkey never consumes anyone's allowance.
    const onRequest = [
      authenticateBearer(deps),
      authenticatePasskey(deps, 'privacy'),
      chargePasskey(deps, 'privacy'),
    ];

    for (const [type, path, noun] of [
      ['forget', '/forgetRequests', 'ForgetRequest'],
      ['access', '/accessRequests', 'AccessRequest'],
    ] as const) {
      const h = privacyHandlers(deps, type);
      const op = operation(type);
      app.post(
        path,
        {
          onRequest,
          schema: op(
            `create${noun}`,
            `File ${type === 'access' ? 'an' : 'a'} ${type} request (409 while one for the same end user is pending)`,
            {
              ...S.CreateRequest,
              response: {
                201: successAnswer(
                  'Accepted: PENDING until the worker completes it',
                  { mediaType: 'application/json', schema: ref(S.RequestRecord) },
                  CREATED_HEADERS,
                ),
                ...errorAnswers(PROBLEMS, CREATE, { charged: true, extraHeaders: RATE_LIMIT_HEADERS }),
              },
            },
          ),
        },
        h.create,
      );
      app.get(
        path,
        {
          onRequest,
          schema: op(`list${noun}s`, `List ${type} requests of the last PRIVACY_LIST_DAYS, newest first`, {
            ...S.ListRequests,
            response: {
              200: ok(S.RequestList),
              ...errorAnswers(PROBLEMS, LIST, { charged: true, extraHeaders: RATE_LIMIT_HEADERS }),
            },
          }),
        },
        h.list,
      );
      app.get(
        `${path}/:id`,
        {
          onRequest,
          schema: op(`get${noun}`, `Get one ${type} request`, {
            ...S.OneRequest,
            response: {
              200: ok(S.RequestRecord),
              ...errorAnswers(PROBLEMS, GET, { charged: true, extraHeaders: RATE_LIMIT_HEADERS }),
            },
          }),
        },
        h.get,
      );
      if (type === 'access') {
        app.get(
          `${path}/:id/export`,
          {
            onRequest,
            schema: op(
              'downloadAccessExport',
              'Download the export of a completed access request (409 while pending, 410 once expired)',
              {
                ...S.OneRequest,
                response: {
                  200: ok(S.AccessExportDocument),
                  ...errorAnswers(PROBLEMS, EXPORT, {
                    charged: true,
                    extraHeaders: RATE_LIMIT_HEADERS,
                    retryAfterOn: [409],
                  }),
                },
              },
            ),
          },
          h.downloadExport,
        );
      }
    }
  };
}

const PROBLEMS: ErrorAnswers = {
  mediaType: 'application/problem+json',
  schema: ref(S.Problem),
  challenge: 'bearer',
  otherClientErrors:
    '405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ' +
    'ALLOWED_HOSTS), 431 (header section too large)',
};

const ok = (schema: TSchema) =>
  successAnswer('Success', { mediaType: 'application/json', schema: ref(schema) }, RATE_LIMIT_HEADERS);

const CREATED_HEADERS = {
  ...RATE_LIMIT_HEADERS,
  Location: Type.String({ format: 'uri', description: 'URL of the new request (RFC 9110 §10.2.2)' }),
};

/** Why each status is sent, by operation. */
const ALWAYS = {
  400: 'The passkey query parameter is missing or malformed',
  401: 'No bearer token, or one that is malformed, expired or revoked',
  403: 'Developer Inactive: the passkey is unknown, inactive, or not a Privacy API passkey of this application',
  429: 'The passkey is over its rate limit (per minute) or its daily quota',
  503: 'The database or the rate-limit store cannot serve right now, or the server is shutting down',
} as const;
const CREATE = {
  ...ALWAYS,
  400: `${ALWAYS[400]}; or the body names no identifier, an invalid one, an unknown member, or a client name the application may not use`,
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

function operation(type: PrivacyRequestType) {
  return <T extends Record<string, unknown>>(operationId: string, summary: string, schema: T) => ({
    operationId,
    summary,
    tags: [type === 'forget' ? 'Privacy: forget requests' : 'Privacy: access requests'],
    // The passkey is the operation's required `passkey` query parameter (see openapi-definition.ts).
    security: [{ bearer: [] }],
    ...schema,
  });
}
