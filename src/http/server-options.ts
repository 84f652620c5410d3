import { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { createAllowedMethods, ROUTER_OPTIONS } from './allowed-methods.js';
import { connectionOptions } from './connection-options.js';
import type { HttpDeps } from './http-deps.js';
import { requestIdOf } from './request-id.js';

/**
 * What the public API's server (build-server.ts) and the admin API's (admin/build-admin-server.ts)
 * are built with alike: the process's logger, request ids, the body limit, connection handling and
 * routing. Each writes one log line per request with its own hook, and answers while closing with
 * steps/refuse-while-closing.ts, so Fastify does neither.
 */
export function serverOptions(deps: Pick<HttpDeps, 'config' | 'logger'>) {
  return {
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: deps.config.bodyLimitBytes,
    genReqId: requestIdOf,
    ...connectionOptions(deps),
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: false,
    routerOptions: { ...ROUTER_OPTIONS },
  };
}

/** Records every route from here on, for the 405 answers (install-error-handling.ts): before any route. */
export function installAllowedMethods(app: FastifyInstance): void {
  const allowedMethods = createAllowedMethods();
  app.addHook('onRoute', allowedMethods.add);
  app.decorate('allowedMethods', allowedMethods);
}

/** For @fastify/swagger: shared schemas appear under their own names in components.schemas, not def-0, def-1, ... */
export const NAMED_SCHEMA_REFS = {
  buildLocalReference: (json: { $id?: unknown }, _baseUri: unknown, _fragment: unknown, i: number) =>
    String(json.$id ?? `def-${i}`),
};
