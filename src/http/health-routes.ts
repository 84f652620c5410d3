import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, DEPENDENCY_RETRY_AFTER_SECONDS } from '../errors.js';
import { createReadinessCheck, type Readiness } from '../services/health/check-readiness.js';
import { describePendingMigrations } from '../services/health/describe-pending-migrations.js';
import type { InstanceState } from '../services/health/instance-state.js';
import { VERSION } from '../version.js';
import { sendProblem } from './errors/render.js';
import type { HttpDeps } from './http-deps.js';

const NAMES: Readonly<Record<string, string>> = { database: 'the database', redis: 'Redis' };

/**
 * /readyz's 503, written by the renderer of every problem document (errors/render.ts): its detail
 * says why (written here from what the instance knows, so shown although a 5xx), its extension
 * members name the running version and what the instance knows of its dependencies, and
 * Retry-After says when to ask again. Rendered rather than thrown: an instance that is not ready
 * has not failed a request (no onError hook, no error metric).
 */
export function notReady(
  request: FastifyRequest,
  reply: FastifyReply,
  detail: string,
  extensions: Record<string, unknown> = {},
): FastifyReply {
  const error = new AppError('SERVICE_UNAVAILABLE', {
    detail,
    expose: true,
    extensions: { version: VERSION, ...extensions },
    headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
  });
  return sendProblem(request, reply, error);
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
 * Liveness (process up) and readiness (this instance can serve: started, not draining, its schema
 * migrated) for orchestrators and load balancers. An outage of a dependency every instance shares
 * is named in `checks` but fails readiness only with READINESS_REQUIRES_DEPENDENCIES: taking every
 * instance out at once would leave clients the balancer's own error page instead of each API's
 * 503 with Retry-After (docs/operations.md, Health, readiness and migrations). Both name the
 * running version, so a rollout can be watched instance by instance.
 */
export function healthRoutes(deps: HttpDeps, instance: InstanceState | null = null): FastifyPluginAsync {
  const checkReadiness = createReadinessCheck(deps);
  return async (app) => {
    const options = { schema: { hide: true }, config: { probe: true } };
    app.get('/healthz', options, async () => ({ status: 'ok', version: VERSION }));
    app.get('/readyz', options, async (request, reply) => {
      if (instance?.phase === 'draining') return notReady(request, reply, 'the instance is shutting down');
      const { checks, pendingMigrations: pending } = await checkReadiness();
      const down = unreachable(checks);
      if (down && deps.config.readinessRequiresDependencies)
        return notReady(request, reply, down, { checks });
      if (pending.length > 0)
        return notReady(request, reply, describePendingMigrations(pending), {
          pendingMigrations: pending,
          checks,
        });
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
