import type { Client } from '../../domain/client.js';
import { AppError } from '../../errors.js';
import type { ResponseScope } from '../../store/repositories/client-responses.js';
import type { TenancyCache } from '../tenancy/create-tenancy-cache.js';

/** An application acting through the Response API in one environment. */
export interface ResponseActor extends ResponseScope {
  /** Recorded as a new response's `responseSource` (docs/interface.md §10.2: the OAuth application's name). */
  readonly applicationName: string;
}

/**
 * The client instance named in a path, if the application is granted it. An unknown name and a
 * name of someone else's client get the same 403, so nothing is learnt about other tenants.
 * The grants come from this process's tenancy cache (docs/architecture.md, Caches).
 */
export async function requireGrantedClient(
  cache: Pick<TenancyCache, 'grants'>,
  scope: ResponseScope,
  clientName: string,
): Promise<Client> {
  const granted = await cache.grants.get(scope.applicationId);
  const client = granted.find((c) => c.name === clientName && c.environment === scope.environment);
  if (!client) {
    throw new AppError('FORBIDDEN', {
      field: 'client',
      detail: `the application may not act for client "${clientName}"`,
      source: { parameter: 'client' },
    });
  }
  return client;
}
