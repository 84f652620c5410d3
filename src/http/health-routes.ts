import type { FastifyPluginAsync } from 'fastify';
import type { HttpDeps } from './http-deps.js';

/** Liveness (process up) and readiness (database reachable) for orchestrators and load balancers. */
export function healthRoutes(deps: HttpDeps): FastifyPluginAsync {
  return async (app) => {
    const options = { schema: { hide: true }, config: { probe: true } };
    app.get('/healthz', options, async () => ({ status: 'ok' }));
    app.get('/readyz', options, async (request, reply) => {
      try {
        await deps.store.ping();
        return { status: 'ok', database: deps.store.dialect };
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        return reply.code(503).type('application/problem+json').send({
          type: '/problems/service-unavailable',
          title: 'Service unavailable',
          status: 503,
          detail: 'the database is not reachable',
        });
      }
    });
  };
}
