import type { Static } from 'typebox';
import { iso } from '../../domain/instant.js';
import {
  type PrivacyRequest,
  type PrivacyRequestType,
  privacyCollectionPath,
  privacyRequestLinks,
} from '../../domain/privacy-request.js';
import type { RequestRecord } from './privacy-schemas.js';

/** Absolute URL of a request collection on the caller's own host, e.g. .../privacy/v1/forgetRequests. */
export function collectionUrl(baseUrl: string, type: PrivacyRequestType): string {
  return `${baseUrl}${privacyCollectionPath(type)}`;
}

/** Wire shape of a privacy request (docs/design.md, Privacy API): plain JSON, not JSON:API. */
export function privacyRecord(request: PrivacyRequest, baseUrl: string): Static<typeof RequestRecord> {
  const links = privacyRequestLinks(baseUrl, {
    type: request.type,
    id: request.id,
    exportAvailable: request.type === 'access' && request.exportExpiresAt !== null,
  });
  return {
    id: request.id,
    type: request.type === 'forget' ? 'forgetRequest' : 'accessRequest',
    status: request.status,
    submittedAt: iso(request.submittedAt),
    dueAt: iso(request.dueAt),
    completedAt: request.completedAt === null ? null : iso(request.completedAt),
    clientNames: [...request.clientNames],
    identifiers: request.identifiers.map((i) => ({ type: i.kind, value: i.masked })),
    receipt:
      request.receipt && request.completedAt !== null
        ? {
            startedAt: request.startedAt === null ? null : iso(request.startedAt),
            completedAt: iso(request.completedAt),
            clients: Object.entries(request.receipt)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([clientName, counts]) => ({ clientName, ...counts })),
          }
        : null,
    ...(request.type === 'access'
      ? { exportExpiresAt: request.exportExpiresAt === null ? null : iso(request.exportExpiresAt) }
      : {}),
    links,
  };
}
