import type { FastifyRequest } from 'fastify';
import type { ServiceDeps } from '../../services/deps.js';

/** The services' dependencies with the admin caller as the actor of what they record. */
export function callerDeps(deps: ServiceDeps, request: FastifyRequest): ServiceDeps {
  const caller = request.adminCaller;
  if (!caller) throw new Error('an admin handler ran before authentication');
  return { ...deps, actor: caller.actor };
}
