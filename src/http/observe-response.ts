import type { FastifyReply, FastifyRequest } from 'fastify';
import { createAccessLog } from './access-log.js';
import type { HttpDeps } from './http-deps.js';
import { endRequestSpan } from './trace-requests.js';

/**
 * One access-log line and the HTTP metrics per answered request, in one hook, from one reading of
 * the duration. The line names the route template, the caller's application and passkey by their
 * ids (never a credential), and the catalog code of an error answer, so an operator can tell who
 * got which 4xx and why; its URL is masked (access-line.ts), and no other field carries what a
 * caller sent but the Host and the address X-Forwarded-For names.
 */
export function observeResponse(deps: HttpDeps) {
  const { metrics } = deps;
  const accessLog = createAccessLog(deps, { msg: 'request completed', sampled: true });
  return function observeResponse(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    metrics.httpRequest(route ?? null, request.method, status, ms / 1000);
    if (request.requestSpan) endRequestSpan(request.requestSpan, request, status, ms);
    if (accessLog.keeps(status, ms)) {
      accessLog.write(request, {
        route,
        status,
        ms,
        applicationId: request.principal?.applicationId ?? request.oauthClient?.application.id,
        passkeyId: request.passkey?.id,
        actor: undefined,
      });
    }
    done();
  };
}
