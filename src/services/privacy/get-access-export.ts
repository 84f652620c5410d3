import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import {
  type ExportSection,
  exportSectionExists,
  findExports,
  pageExportReviews,
} from '../../store/repositories/privacy-exports.js';
import { findPrivacyRequest } from '../../store/repositories/privacy-requests.js';
import type { ServiceDeps } from '../deps.js';

export interface AccessExportSection {
  readonly clientName: string;
  /**
   * What the export says of each review (JSON text), read a page at a time as they are asked
   * for: a download holds one page, not the person's whole history. Each call reads anew.
   */
  reviews(): AsyncIterable<string>;
}

const PAGE = 500;

export interface AccessExport {
  readonly requestId: string;
  readonly generatedAt: number;
  readonly expiresAt: number;
  /** One section per client instance. */
  readonly sections: readonly AccessExportSection[];
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
    sections: sections.map((s) => ({
      clientName: s.clientName,
      reviews: () => sectionReviews(deps, request.id, s),
    })),
  };
}

async function* sectionReviews(
  deps: ServiceDeps,
  requestId: string,
  section: ExportSection,
): AsyncIterable<string> {
  let after: string | null = null;
  for (;;) {
    const page = await pageExportReviews(deps.store.db, {
      requestId,
      clientId: section.clientId,
      after,
      limit: PAGE,
    });
    for (const review of page) yield review.content;
    if (page.length < PAGE) {
      // Its rows go with it: a section erased or expired while it was being read ends short,
      // which must read as a failed download, not as the whole export.
      if (!(await exportSectionExists(deps.store.db, { requestId, clientId: section.clientId })))
        throw new AppError('GONE', { detail: 'the export was erased or expired while it was being sent' });
      return;
    }
    after = page[page.length - 1]?.reviewId ?? null;
  }
}
