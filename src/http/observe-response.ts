import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceDeps } from '../services/deps.js';
import type { AccessAnswer, AccessMessage } from './access-line.js';
import { createAccessLog } from './access-log.js';
import { endRequestSpan } from './trace-requests.js';

/** What sets one listener's observation apart from the other's. */
export interface ObservedListener {
  readonly msg: AccessMessage;
  /** Whether ACCESS_LOG_SAMPLE thins its lines (access-log.ts). */
  readonly sampled: boolean;
  /** Whether its answers count in the HTTP request metrics. */
  readonly counted: boolean;
  /** Who called, as its line names them: an application and passkey, or an operator. */
  caller(request: FastifyRequest): Pick<AccessAnswer, 'applicationId' | 'passkeyId' | 'actor'>;
}

/** The public listener: partners' calls, counted, their lines sampled. */
const PUBLIC_LISTENER: ObservedListener = {
  msg: 'request completed',
  sampled: true,
  counted: true,
  caller: (request) => ({
    applicationId: request.principal?.applicationId ?? request.oauthClient?.application.id,
    passkeyId: request.passkey?.id,
    actor: undefined,
  }),
};

/**
 * One access-log line, the HTTP metrics and the end of the request's span per answered request,
 * in one hook, from one reading of the duration. The line names the route template, the caller by
 * ids (never a credential), and the catalog code of an error answer, so an operator can tell who
 * got which 4xx and why; its URL is masked (access-line.ts), and no other field carries what a
 * caller sent but the Host and the address X-Forwarded-For names. Both listeners observe through
 * it, each with its `ObservedListener`.
 */
export function observeResponse(deps: ServiceDeps, listener: ObservedListener = PUBLIC_LISTENER) {
  const { metrics } = deps;
  const accessLog = createAccessLog(deps, listener);
  return function observeResponse(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    if (listener.counted) metrics.httpRequest(route ?? null, request.method, status, ms / 1000);
    if (request.requestSpan) endRequestSpan(request.requestSpan, request, status, ms);
    if (accessLog.keeps(status, ms))
      accessLog.write(request, { route, status, ms, ...listener.caller(request) });
    done();
  };
}
