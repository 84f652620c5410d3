import type { Environment } from '../../domain/environment.js';
import type { PrivacyRequest, PrivacyRequestType } from '../../domain/privacy-request.js';
import { AppError } from '../../errors.js';
import {
  findPrivacyRequest,
  findRequestDetails,
  toPrivacyRequest,
} from '../../store/repositories/privacy-requests.js';
import type { ServiceDeps } from '../deps.js';

/**
 * One request of the calling application. Another application's request, or one of the other
 * environment, is "not found" rather than forbidden, so ids reveal nothing.
 */
export async function getPrivacyRequest(
  deps: ServiceDeps,
  input: { id: string; type: PrivacyRequestType; environment: Environment; applicationId: string },
): Promise<PrivacyRequest> {
  const row = await findPrivacyRequest(deps.store.db, input);
  if (!row) throw new AppError('NOT_FOUND', { detail: `no ${input.type} request with this id` });
  const details = await findRequestDetails(deps.store.db, [row.id]);
  const expiry = details.exportExpiry.get(row.id) ?? null;
  return toPrivacyRequest(row, {
    clients: details.clients.get(row.id) ?? [],
    identifiers: details.identifiers.get(row.id) ?? [],
    exportExpiresAt: expiry !== null && expiry > deps.clock() ? expiry : null,
  });
}
