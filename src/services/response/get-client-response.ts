import type { ClientResponse, ResponseAuthorship } from '../../domain/client-response.js';
import { normalizeResponseGuid } from '../../domain/response-guid.js';
import {
  findAccessibleResponse,
  findAccessibleResponseAuthor,
  type ResponseScope,
} from '../../store/repositories/client-responses.js';
import type { ServiceDeps } from '../deps.js';
import { responseNotFound } from './response-not-found.js';

/**
 * One response of a client instance the application is granted. A response of any other client
 * is reported exactly like one that does not exist (404), in every environment.
 */
export async function getClientResponse(
  deps: ServiceDeps,
  input: { scope: ResponseScope; id: string },
): Promise<ClientResponse> {
  const id = normalizeResponseGuid(input.id);
  const record = id ? await findAccessibleResponse(deps.store.db, input.scope, id) : undefined;
  if (!record) throw responseNotFound();
  return record;
}

/** Who wrote one response, under the same rule as getClientResponse. */
export async function getClientResponseAuthor(
  deps: ServiceDeps,
  input: { scope: ResponseScope; id: string },
): Promise<ResponseAuthorship> {
  const id = normalizeResponseGuid(input.id);
  const record = id ? await findAccessibleResponseAuthor(deps.store.db, input.scope, id) : undefined;
  if (!record) throw responseNotFound();
  return record;
}
