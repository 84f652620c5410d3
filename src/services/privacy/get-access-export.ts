import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import { findExports } from '../../store/repositories/privacy-exports.js';
import { findPrivacyRequest } from '../../store/repositories/privacy-requests.js';
import type { ServiceDeps } from '../deps.js';

export interface AccessExport {
  readonly requestId: string;
  readonly generatedAt: number;
  readonly expiresAt: number;
  /** One JSON document per client instance, as stored. */
  readonly sections: readonly { clientName: string; content: string }[];
}

/**
 * The export of a completed access request, for the application that filed it only. While the
 * request is pending there is nothing yet (409, retry later); after PRIVACY_EXPORT_RETENTION_DAYS,
 * or once a forget request erased the subject, it is gone (410).
 */
export async function getAccessExport(
  deps: ServiceDeps,
  input: { id: string; environment: Environment; applicationId: string },
): Promise<AccessExport> {
  const request = await findPrivacyRequest(deps.store.db, { ...input, type: 'access' });
  if (!request) throw new AppError('NOT_FOUND', { detail: 'no access request with this id' });
  if (request.status === 'PENDING') {
    throw new AppError('EXPORT_NOT_READY', {
      detail: 'the access request is still being processed; try again later',
      headers: { 'retry-after': String(Math.max(1, Math.ceil(deps.config.worker.pollIntervalMs / 1000))) },
    });
  }
  const now = deps.clock();
  const sections = (await findExports(deps.store.db, request.id)).filter((s) => s.expiresAt > now);
  const first = sections[0];
  if (!first) {
    throw new AppError('GONE', { detail: 'the export of this access request has expired or been erased' });
  }
  return {
    requestId: request.id,
    generatedAt: first.createdAt,
    expiresAt: first.expiresAt,
    sections: sections.map((s) => ({ clientName: s.clientName, content: s.content })),
  };
}
