import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AppError, DEPENDENCY_RETRY_AFTER_SECONDS } from '../errors.js';
import type { InstanceState } from '../services/health/instance-state.js';
import { VERSION } from '../version.js';
import { connectionOptions } from './connection-options.js';
import { errorShapeFor, sendIn } from './errors/render.js';
import { notReady } from './health-routes.js';
import type { HttpDeps } from './http-deps.js';
import { proxyTrust } from './proxy-trust.js';
import { serverOptions } from './server-options.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The listener of `rpa serve`, open before the instance has started, so a supervisor sees a live
 * process and a balancer a 503 rather than a refused connection while the database is out of
 * reach or its schema waits for `rpa migrate`. Until `serve` hands it the built application, its
 * gate answers /healthz 200, /readyz 503 naming why, and every other request 503 with Retry-After
 * in the shape of the API its path names (errors/render.ts).
 */
export interface FrontServer {
  /** The one listener, for its address. */
  readonly server: Server;
  listen(options: { port: number; host: string }): Promise<void>;
  /** Passed to buildServer: the application answers on this listener once `serve` is called. */
  readonly serverFactory: (handler: Handler) => Server;
  /** From now on every request goes to `app`, built with `serverFactory`. */
  serve(app: FastifyInstance): void;
  /** Stops accepting, then waits for the connections in flight (Fastify's close). */
  close(): Promise<void>;
}

export function buildFrontServer(
  deps: Pick<HttpDeps, 'config' | 'logger'>,
  instance: InstanceState,
): FrontServer {
  const options = connectionOptions(deps);
  const server = createServer(options.http);
  // What Fastify sets on a server it creates itself, which it leaves to a server factory.
  server.keepAliveTimeout = options.keepAliveTimeout;
  server.requestTimeout = options.requestTimeout;
  let gateHandler: Handler | null = null;
  let appHandler: Handler | null = null;
  let app: FastifyInstance | null = null;
  let built: Handler | null = null;
  server.on('request', (request: IncomingMessage, response: ServerResponse) =>
    (appHandler ?? (gateHandler as Handler))(request, response),
  );
  const gate = Fastify({
    ...serverOptions(deps),
    trustProxy: proxyTrust(deps.config.trustProxy),
    serverFactory: (handler: Handler) => {
      gateHandler = handler;
      return server;
    },
  });
  gateRoutes(gate, instance);
  return {
    server,
    async listen({ port, host }) {
      await gate.listen({ port, host });
    },
    serverFactory(handler) {
      built = handler;
      // The application never listens itself: its requests arrive through `server`.
      return createServer();
    },
    serve(next) {
      app = next;
      appHandler = built;
    },
    async close() {
      await Promise.all([gate.close(), app?.close()]);
    },
  };
}

function gateRoutes(gate: FastifyInstance, instance: InstanceState): void {
  const options = { schema: { hide: true }, config: { probe: true } };
  gate.get('/healthz', options, async () => ({ status: 'ok', version: VERSION }));
  gate.get('/readyz', options, async (request, reply) => {
    const blocker = instance.blocker ?? { detail: 'the instance is starting' };
    const pending = blocker.pendingMigrations;
    return notReady(request, reply, blocker.detail, pending ? { pendingMigrations: pending } : {});
  });
  gate.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'no-store');
    const path = request.url.split('?')[0];
    if (path === '/healthz' || path === '/readyz') return done();
    refuse(request, reply);
  });
}

/** Before the instance has started, no call can be served: 503, never 500 or a refused connection. */
function refuse(request: FastifyRequest, reply: FastifyReply): void {
  // Answered before the body arrived: the connection ends with this answer (RFC 9112 §9.6).
  if (request.raw.complete === false) reply.header('connection', 'close');
  const detail = 'the service is starting; try again shortly';
  const error = new AppError('SERVICE_UNAVAILABLE', {
    detail,
    headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
  });
  sendIn(errorShapeFor(request.url))(request, reply, error);
}
