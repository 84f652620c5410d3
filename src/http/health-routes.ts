import type { FastifyPluginAsync } from 'fastify';
import { createReadinessCheck } from '../services/health/check-readiness.js';
import { VERSION } from '../version.js';
import type { HttpDeps } from './http-deps.js';

function notReady(detail: string, extra: Record<string, unknown> = {}) {
  return {
    type: '/problems/service-unavailable',
    title: 'Service unavailable',
    status: 503,
    detail,
    version: VERSION,
    ...extra,
  };
}

/**
 * Liveness (process up) and readiness (database reachable and migrated) for orchestrators and
 * load balancers; both name the running version, so a rollout can be watched instance by instance.
 */
export function healthRoutes(deps: HttpDeps): FastifyPluginAsync {
  const checkReadiness = createReadinessCheck(deps);
  return async (app) => {
    const options = { schema: { hide: true }, config: { probe: true } };
    app.get('/healthz', options, async () => ({ status: 'ok', version: VERSION }));
    app.get('/readyz', options, async (request, reply) => {
      let pending: readonly string[];
      try {
        ({ pendingMigrations: pending } = await checkReadiness());
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        return reply
          .code(503)
          .type('application/problem+json')
          .send(notReady('the database is not reachable'));
      }
      if (pending.length > 0) {
        const count =
          pending.length === 1 ? '1 database migration is' : `${pending.length} database migrations are`;
        return reply
          .code(503)
          .type('application/problem+json')
          .send(notReady(`${count} pending; run \`rpa migrate\``, { pendingMigrations: pending }));
      }
      return { status: 'ok', version: VERSION, database: deps.store.dialect, pendingMigrations: [] };
    });
  };
}
