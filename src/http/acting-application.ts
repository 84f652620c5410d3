import type { Environment } from '../domain/environment.js';
import { AppError } from '../errors.js';
import type { Principal } from '../services/auth/create-token-verifier.js';
import type { Site } from './request-context.js';

/** An application calling an API, in the environment of the host the request was sent to. */
export interface ActingApplication {
  readonly environment: Environment;
  readonly applicationId: string;
  readonly applicationName: string;
}

/**
 * The principal `authenticateBearer` found for a request. Without one the request was not
 * authenticated: 401 with the RFC 6750 §3 challenge.
 */
export function requirePrincipal(request: { principal: Principal | null }): Principal {
  const { principal } = request;
  if (!principal)
    throw new AppError('UNAUTHORIZED', { headers: { 'www-authenticate': 'Bearer realm="api"' } });
  return principal;
}

/** The application behind the bearer token of a request that `authenticateBearer` let through. */
export function actingApplication(request: { site: Site; principal: Principal | null }): ActingApplication {
  const principal = requirePrincipal(request);
  return {
    environment: request.site.environment,
    applicationId: principal.applicationId,
    applicationName: principal.applicationName,
  };
}
