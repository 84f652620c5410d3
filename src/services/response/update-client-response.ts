import { normalizeResponseAttributes, responseTextHash } from '../../domain/response-attributes.js';
import { normalizeResponseGuid } from '../../domain/response-guid.js';
import { isUniqueViolation } from '../../store/driver-errors.js';
import {
  type ClientResponseRecord,
  findAccessibleResponse,
  type ResponseScope,
  updateClientResponse as updateRow,
} from '../../store/repositories/client-responses.js';
import { findOrCreateResponseAuthor } from '../../store/repositories/response-authors.js';
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
): Promise<ClientResponseRecord> {
  const id = normalizeResponseGuid(input.id);
  if (!id) throw responseNotFound();
  const now = deps.clock();
  try {
    return await deps.store.db.transaction().execute(async (trx) => {
      const current = await findAccessibleResponse(trx, input.scope, id);
      if (!current) throw responseNotFound();
      const { changes } = input;
      const attributes = normalizeResponseAttributes({
        department: changes.department ?? current.department,
        response: changes.response ?? current.response,
        responseBy: changes.responseBy === undefined ? current.response_by : changes.responseBy,
      });
      const author = await findOrCreateResponseAuthor(trx, {
        environment: current.environment,
        applicationId: current.application_id,
        name: attributes.responseBy ?? current.response_source,
        now,
      });
      const next: ClientResponseRecord = {
        ...current,
        department: attributes.department,
        response: attributes.response,
        response_hash: responseTextHash(attributes.response),
        response_by: attributes.responseBy,
        author_id: author.id,
        updated_at: Math.max(now, current.created_at),
      };
      await updateRow(trx, id, {
        department: next.department,
        response: next.response,
        response_hash: next.response_hash,
        response_by: next.response_by,
        author_id: next.author_id,
        updated_at: next.updated_at,
      });
      return next;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateResponse();
    throw err;
  }
}
