import type { ClientResponse } from '../../domain/client-response.js';
import { normalizeResponseAttributes, responseTextHash } from '../../domain/response-attributes.js';
import { normalizeResponseGuid } from '../../domain/response-guid.js';
import { isUniqueViolation } from '../../store/driver-errors.js';
import {
  findAccessibleResponse,
  type ResponseScope,
  updateClientResponse as updateRow,
} from '../../store/repositories/client-responses.js';
import { findOrCreateResponseAuthor } from '../../store/repositories/response-authors.js';
import { inTransaction } from '../../store/transaction.js';
import type { ServiceDeps } from '../deps.js';
import { duplicateResponse } from './duplicate-response.js';
import { responseNotFound } from './response-not-found.js';

export interface ResponseChanges {
  department?: string | undefined;
  response?: string | undefined;
  /** null (or blank) clears it; absent keeps it. */
  responseBy?: string | null | undefined;
}

/**
 * Changes some attributes of a response of a granted client; any application granted the client
 * may. The author follows `responseBy` within the application that wrote the response, and
 * `responseSource` keeps naming that application.
 */
export async function updateClientResponse(
  deps: ServiceDeps,
  input: { scope: ResponseScope; id: string; changes: ResponseChanges },
): Promise<ClientResponse> {
  const id = normalizeResponseGuid(input.id);
  if (!id) throw responseNotFound();
  const now = deps.clock();
  try {
    return await inTransaction(deps.store.db, async (trx) => {
      const current = await findAccessibleResponse(trx, input.scope, id);
      if (!current) throw responseNotFound();
      const { changes } = input;
      const attributes = normalizeResponseAttributes({
        department: changes.department ?? current.department,
        response: changes.response ?? current.response,
        responseBy: changes.responseBy === undefined ? current.responseBy : changes.responseBy,
      });
      const author = await findOrCreateResponseAuthor(trx, {
        environment: current.environment,
        applicationId: current.applicationId,
        name: attributes.responseBy ?? current.responseSource,
        now,
      });
      const next: ClientResponse = {
        ...current,
        department: attributes.department,
        response: attributes.response,
        responseHash: responseTextHash(attributes.response),
        responseBy: attributes.responseBy,
        authorId: author.id,
        updatedAt: Math.max(now, current.createdAt),
      };
      await updateRow(trx, next);
      return next;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateResponse();
    throw err;
  }
}
