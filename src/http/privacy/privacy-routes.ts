import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { PrivacyRequestType } from '../../domain/privacy-request.js';
import { acceptJsonBodies } from '../accept-json-bodies.js';
import { installErrorHandling } from '../errors/install-error-handling.js';
import { sendProblem } from '../errors/render.js';
import type { HttpDeps } from '../http-deps.js';
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
    acceptJsonBodies(app, ['application/json']);
    // Records and exports are personal data: no shared cache may keep them (RFC 9111 §5.2.2.5).
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    // Authentication before validation, so a request without a token gets 401 first; charging
    // after it, so a bad token or passkey never consumes anyone's allowance.
    const onRequest = [authenticateBearer(deps), authenticatePasskey(deps, 'privacy'), chargePasskey(deps)];
    const preParsing = [assumeJsonBody];

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
          preParsing,
          schema: op(
            `create${noun}`,
            `File a ${type} request (409 while one for the same end user is pending)`,
            {
              ...S.CreateRequest,
              response: { 201: S.RequestRecord, ...problems },
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
            response: { 200: S.RequestList, ...problems },
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
            response: { 200: S.RequestRecord, ...problems },
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
                response: { 200: S.AccessExportDocument, ...problems },
              },
            ),
          },
          h.downloadExport,
        );
      }
    }
  };
}

/** docs/interface.md §4.3: "Content-Type defaults to application/json", so a body without one is read as JSON. */
async function assumeJsonBody(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const { headers } = request.raw;
  const hasBody = headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0';
  if (headers['content-type'] === undefined && hasBody) {
    headers['content-type'] = 'application/json';
  }
}

const problem = {
  description: 'RFC 9457 problem details',
  content: { 'application/problem+json': { schema: S.Problem } },
};
const problems = {
  '4xx': problem,
  '5xx': { ...problem, description: 'Server error; never shows internals' },
};

function operation(type: PrivacyRequestType) {
  return <T extends Record<string, unknown>>(operationId: string, summary: string, schema: T) => ({
    operationId,
    summary,
    tags: [type === 'forget' ? 'Privacy: forget requests' : 'Privacy: access requests'],
    security: [{ bearer: [], passkey: [] }],
    ...schema,
  });
}
