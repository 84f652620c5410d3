import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutesSetup, type Operation, type OperationName } from '../api-routes-setup.js';
import { sendProblem } from '../errors/render.js';
import type { HttpDeps } from '../http-deps.js';
import { RATE_LIMIT_HEADERS } from '../openapi/documented-answers.js';
import { ref } from '../openapi/schema-ref.js';
import { privacyHandlers } from './privacy-handlers.js';
import { privacyOperations } from './privacy-operations.js';
import * as S from './privacy-schemas.js';

/**
 * Privacy API under /privacy/v1 (docs/interface.md §4.3; docs/design.md, Privacy API): forget and access requests,
 * created, listed and read by the application that filed them, and the access export download.
 * Errors are RFC 9457 problem details. Each operation's summary, request parts and answers are in
 * privacy-operations.ts.
 */
export function privacyRoutes(deps: HttpDeps): FastifyPluginAsync {
  return async (plugin) => {
    const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
    const routeOptions = apiRoutesSetup(app, deps, {
      passkeyApi: 'privacy',
      render: sendProblem,
      // docs/interface.md §4.3: "Content-Type defaults to application/json".
      bodyTypes: ['application/json'],
      untypedIsJson: true,
      errorBody: { mediaType: 'application/problem+json', schema: ref(S.Problem) },
      everyAnswer: RATE_LIMIT_HEADERS,
    });
    // Every route takes the common steps only (apiRoutesSetup).
    const route = <O extends Operation<object>>(o: { name: OperationName; op: O }) =>
      routeOptions(o.name, o.op, {});

    for (const [type, path] of [
      ['forget', '/forgetRequests'],
      ['access', '/accessRequests'],
    ] as const) {
      const h = privacyHandlers(deps, type);
      const ops = privacyOperations(type);
      app.post(path, route(ops.create), h.create);
      app.get(path, route(ops.list), h.list);
      app.get(`${path}/:id`, route(ops.get), h.get);
      if (type === 'access') app.get(`${path}/:id/export`, route(ops.downloadExport), h.downloadExport);
    }
  };
}
