import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HttpDeps } from './http-deps.js';
import { endRequestSpan } from './trace-requests.js';

/**
 * One access-log line and the HTTP metrics per answered request, in one hook. The line names the
 * route template, the caller's application and passkey by their ids (never a credential), and the
 * catalog code of an error answer, so an operator can tell who got which 4xx and why. The URL goes
 * through the logger's `req` serializer, which masks query values and odd path segments; no other
 * field may carry what a caller sent (`accessLog` writes it without the redaction paths).
 */
export function observeResponse(deps: HttpDeps) {
  const { accessLog: logger, metrics } = deps;
  return function observeResponse(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const route = request.routeOptions.url ?? null;
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    metrics.httpRequest(route, request.method, status, ms / 1000);
    if (request.requestSpan) endRequestSpan(request.requestSpan, request, status, ms);
    if (logger.isLevelEnabled('info')) {
      const applicationId = request.principal?.applicationId ?? request.oauthClient?.application.id;
      logger.info(
        {
          reqId: request.id,
          req: request,
          route: route ?? undefined,
          status,
          ms: Math.round(ms * 1000) / 1000,
          applicationId,
          passkeyId: request.passkey?.id,
          error: status >= 400 ? (request.errorCode ?? undefined) : undefined,
        },
        'request completed',
      );
    }
    done();
  };
}
