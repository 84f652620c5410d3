import type { FastifyPluginAsync } from 'fastify';
import { apiRoutesSetup, resourceApi } from '../api-routes-setup.js';
import { sendProblem } from '../errors/render.js';
import type { HttpDeps } from '../http-deps.js';
import { RATE_LIMIT_HEADERS } from '../openapi/documented-answers.js';
import { ref } from '../openapi/schema-ref.js';
import { registerRouteTable, route } from '../route-table.js';
import { privacyHandlers } from './privacy-handlers.js';
import { PRIVACY_OPERATIONS as O } from './privacy-operations.js';
import * as S from './privacy-schemas.js';

/**
 * Privacy API under /privacy/v1 (docs/interface.md §4.3; docs/design.md, Privacy API): forget and access requests,
 * created, listed and read by the application that filed them, and the access export download.
 * Errors are RFC 9457 problem details. Each operation's summary, request parts and answers are in
 * privacy-operations.ts; every route takes the steps every route of the API starts with, and no
 * others.
 */
export function privacyRoutes(deps: HttpDeps): FastifyPluginAsync {
  return async (app) => {
    const api = resourceApi(deps, {
      passkeyApi: 'privacy',
      render: sendProblem,
      // docs/interface.md §4.3: "Content-Type defaults to application/json".
      bodyTypes: ['application/json'],
      untypedIsJson: true,
      errorBody: { mediaType: 'application/problem+json', schema: ref(S.Problem) },
      everyAnswer: RATE_LIMIT_HEADERS,
    });
    apiRoutesSetup(app, api);
    const forget = privacyHandlers(deps, 'forget');
    const access = privacyHandlers(deps, 'access');
    // biome-ignore format: a route table, one route per line
    registerRouteTable(app, api, [
      route('POST', '/forgetRequests',            O.createForgetRequest,  {}, forget.create),
      route('GET',  '/forgetRequests',            O.listForgetRequests,   {}, forget.list),
      route('GET',  '/forgetRequests/:id',        O.getForgetRequest,     {}, forget.get),
      route('POST', '/accessRequests',            O.createAccessRequest,  {}, access.create),
      route('GET',  '/accessRequests',            O.listAccessRequests,   {}, access.list),
      route('GET',  '/accessRequests/:id',        O.getAccessRequest,     {}, access.get),
      route('GET',  '/accessRequests/:id/export', O.downloadAccessExport, {}, access.downloadExport),
    ]);
  };
}
