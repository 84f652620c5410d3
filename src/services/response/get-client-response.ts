import type { ClientResponse, ResponseAuthorship } from '../../domain/client-response.js';
import { normalizeResponseGuid } from '../../domain/response-guid.js';
import {
  findAccessibleResponse,
  findAccessibleResponseAuthor,
  type ResponseScope,
} from '../../store/repositories/client-responses.js';
import type { ServiceDeps } from '../deps.js';
import { responseNotFound } from './response-not-found.js';

type Scoped = { scope: ResponseScope; id: string };

/**
 * One response of a client instance the application is granted. A response of any other client
 * is reported exactly like one that does not exist (404), in every environment.
 */
export function getClientResponse(deps: ServiceDeps, input: Scoped): Promise<ClientResponse> {
  return findGranted(deps, input, findAccessibleResponse);
}

/** Who wrote one response, under the same rule as getClientResponse. */
export function getClientResponseAuthor(deps: ServiceDeps, input: Scoped): Promise<ResponseAuthorship> {
  return findGranted(deps, input, findAccessibleResponseAuthor);
}

async function findGranted<T>(
  deps: ServiceDeps,
  input: Scoped,
  find: (db: ServiceDeps['store']['db'], scope: ResponseScope, id: string) => Promise<T | undefined>,
): Promise<T> {
  const id = normalizeResponseGuid(input.id);
  const record = id ? await find(deps.store.db, input.scope, id) : undefined;
  if (!record) throw responseNotFound();
  return record;
}
