import { normalizeResponseGuid } from '../../domain/response-guid.js';
import { deleteAccessibleResponse, type ResponseScope } from '../../store/repositories/client-responses.js';
import type { ServiceDeps } from '../deps.js';

/**
 * Deletes a response of a granted client. Idempotent, as in the public system: an unknown GUID,
 * an already deleted response and another tenant's response all end the same way (nothing left
 * to delete), and the caller cannot tell them apart.
 */
export async function deleteClientResponse(
  deps: ServiceDeps,
  input: { scope: ResponseScope; id: string },
): Promise<{ deleted: boolean }> {
  const id = normalizeResponseGuid(input.id);
  if (!id) return { deleted: false };
  return { deleted: (await deleteAccessibleResponse(deps.store.db, input.scope, id)) > 0 };
}
