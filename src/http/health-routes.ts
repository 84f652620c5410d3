import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../errors.js';
import { createReadinessCheck, type Readiness } from '../services/health/check-readiness.js';
import { VERSION } from '../version.js';
import type { HttpDeps } from './http-deps.js';

const NAMES: Readonly<Record<string, string>> = { database: 'the database', redis: 'Redis' };

function notReady(reply: FastifyReply, detail: string, extra: Record<string, unknown>) {
  return reply
    .code(503)
    .type('application/problem+json')
    .send({
      type: '/problems/service-unavailable',
      title: 'Service unavailable',
      status: 503,
      detail,
      version: VERSION,
      ...extra,
    });
}

/** "the database is", "Redis is", "the database and Redis are": what a 503 says is down. */
function unreachable(checks: Readiness['checks']): string | null {
  const down = Object.entries(checks)
    .filter(([, state]) => state === 'down')
    .map(([name]) => NAMES[name] ?? name);
  if (down.length === 0) return null;
  return `${down.join(' and ')} ${down.length === 1 ? 'is' : 'are'} not reachable`;
}

/**
 * Liveness (process up) and readiness (every dependency answers, the database is migrated) for
 * orchestrators and load balancers; both name the running version, so a rollout can be watched
 * instance by instance, and readiness names the state of each dependency (docs/operations.md).
 */
export function healthRoutes(deps: HttpDeps): FastifyPluginAsync {
  const checkReadiness = createReadinessCheck(deps);
  return async (app) => {
    const options = { schema: { hide: true }, config: { probe: true } };
    app.get('/healthz', options, async () => ({ status: 'ok', version: VERSION }));
    app.get('/readyz', options, async (_request, reply) => {
      const { checks, pendingMigrations: pending } = await checkReadiness();
      const down = unreachable(checks);
      if (down) {
        reply.header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS));
        return notReady(reply, down, { checks });
      }
      if (pending.length > 0) {
        const count =
          pending.length === 1 ? '1 database migration is' : `${pending.length} database migrations are`;
        return notReady(reply, `${count} pending; run \`rpa migrate\``, {
          pendingMigrations: pending,
          checks,
        });
      }
      return {
        status: 'ok',
        version: VERSION,
        database: deps.store.dialect,
        pendingMigrations: [],
        checks,
      };
    });
  };
}
