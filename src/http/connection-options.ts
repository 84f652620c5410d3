import type { Server } from 'node:http';
import type { FastifyBaseLogger, FastifyHttpOptions } from 'fastify';
import { answerClientError } from './errors/answer-client-error.js';
import { answerFrameworkError } from './errors/answer-framework-error.js';
import type { HttpDeps } from './http-deps.js';

/**
 * What the server does with connections and with requests that never reach a route. Node checks
 * the request and header timeouts every `connectionsCheckingInterval` (30 s by default, too coarse
 * for short timeouts), so the check runs at a quarter of the shorter one, at most once a second.
 */
export function connectionOptions(deps: Pick<HttpDeps, 'config' | 'logger'>) {
  const { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs } = deps.config.connections;
  return {
    // Fastify sets the server's requestTimeout from its own option after creating it (0 = never).
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
      // Node answers a missing Host itself, with a bare 400; steps/resolve-site.ts answers it in the
      // shape of the API instead (RFC 9112 §3.2 makes it a 400 either way).
      requireHostHeader: false,
    },
    clientErrorHandler: answerClientError(deps.logger as FastifyBaseLogger),
    frameworkErrors: answerFrameworkError,
  } satisfies FastifyHttpOptions<Server>;
}
