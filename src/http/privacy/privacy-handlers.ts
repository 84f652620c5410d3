import { Readable } from 'node:stream';
import Negotiator from 'negotiator';
import { IDENTIFIER_KINDS, type Identifiers } from '../../domain/identifiers.js';
import type { PrivacyRequestType } from '../../domain/privacy-request.js';
import { createPrivacyRequestOnce } from '../../services/privacy/create-privacy-request.js';
import { getAccessExport } from '../../services/privacy/get-access-export.js';
import { getPrivacyRequest } from '../../services/privacy/get-privacy-request.js';
import { listPrivacyRequests } from '../../services/privacy/list-privacy-requests.js';
import { actingApplication } from '../acting-application.js';
import type { HttpDeps } from '../http-deps.js';
import { idempotencyOf, markReplayed } from '../idempotent-request.js';
import type { RouteReply, RouteRequest } from '../route-request.js';
import { exportDownload } from './export-archive.js';
import { collectionUrl, privacyRecord } from './privacy-record.js';
import type * as S from './privacy-schemas.js';

function identifiersOf(source: Partial<Record<string, unknown>>): Identifiers {
  const identifiers: Identifiers = {};
  for (const kind of IDENTIFIER_KINDS) {
    const value = source[kind];
    if (typeof value === 'string') identifiers[kind] = value;
  }
  return identifiers;
}

const EXPORT_TYPES = { 'application/json': 'json', 'application/zip': 'zip' } as const;

/**
 * `?format=` is the caller's explicit choice; otherwise Accept, weighed by its q-values
 * (RFC 9110, 12.5.1), picks between JSON (the default, also when neither is acceptable) and ZIP.
 */
function exportFormat(request: RouteRequest<typeof S.ExportRequest>): 'json' | 'zip' {
  if (request.query.format) return request.query.format;
  const chosen = new Negotiator(request).mediaType(Object.keys(EXPORT_TYPES));
  return EXPORT_TYPES[chosen as keyof typeof EXPORT_TYPES] ?? 'json';
}

const NOT_IN_LINKS = new Set<string>(['passkey', 'cursor', ...IDENTIFIER_KINDS]);

/** Handlers of the Privacy API; request shapes were validated by the route schemas. */
export function privacyHandlers(deps: HttpDeps, type: PrivacyRequestType) {
  return {
    async create(request: RouteRequest<typeof S.CreateRequest>, reply: RouteReply<typeof S.CreateRequest>) {
      const { body } = request;
      const acting = actingApplication(request);
      const input = {
        type,
        ...acting,
        identifiers: identifiersOf(body),
        ...(body.clientNames ? { clientNames: body.clientNames } : {}),
        baseUrl: request.site.baseUrl,
        traceParent: request.requestSpan?.carrier().traceparent ?? null,
      };
      const { request: created, replayed } = await createPrivacyRequestOnce(
        deps,
        input,
        idempotencyOf(request),
      );
      const record = privacyRecord(created, request.site.baseUrl);
      markReplayed(reply, replayed);
      return reply.code(201).header('location', record.links.self).send(record);
    },

    async list(request: RouteRequest<typeof S.ListRequests>) {
      const q = request.query;
      const page = await listPrivacyRequests(deps, {
        type,
        ...actingApplication(request),
        identifiers: identifiersOf(q),
        ...(q.id !== undefined ? { id: q.id } : {}),
        ...(q.status !== undefined ? { status: q.status } : {}),
        ...(q.clientName !== undefined ? { clientName: q.clientName } : {}),
        ...(q.submittedAfter !== undefined ? { submittedAfter: Date.parse(q.submittedAfter) } : {}),
        ...(q.completedAfter !== undefined ? { completedAfter: Date.parse(q.completedAfter) } : {}),
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
        ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
      });
      const base = collectionUrl(request.site.baseUrl, type);
      // Links repeat the filters but never the passkey or an identifier: a link may be logged or
      // shared. The identifier filter travels inside the cursor, as its keyed hash.
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(q)) {
        if (value !== undefined && !NOT_IN_LINKS.has(name)) params.set(name, String(value));
      }
      const self = new URLSearchParams(params);
      if (page.selfCursor) self.set('cursor', page.selfCursor);
      const next = new URLSearchParams(params);
      if (page.nextCursor) next.set('cursor', page.nextCursor);
      const withQuery = (p: URLSearchParams) => (p.size > 0 ? `${base}?${p}` : base);
      return {
        requests: page.requests.map((r) => privacyRecord(r, request.site.baseUrl)),
        nextCursor: page.nextCursor,
        links: { self: withQuery(self), ...(page.nextCursor ? { next: withQuery(next) } : {}) },
      };
    },

    async get(request: RouteRequest<typeof S.OneRequest>) {
      const { id } = request.params;
      const found = await getPrivacyRequest(deps, { id, type, ...actingApplication(request) });
      return privacyRecord(found, request.site.baseUrl);
    },

    /** Streams the export, as JSON or as a ZIP archive (export-archive.ts), a page at a time. */
    async downloadExport(
      request: RouteRequest<typeof S.ExportRequest>,
      reply: RouteReply<typeof S.ExportRequest>,
    ) {
      const { id } = request.params;
      const exported = await getAccessExport(deps, { id, ...actingApplication(request) });
      const download = exportDownload(exported, exportFormat(request));
      reply
        .type(download.mediaType)
        .header('vary', 'Accept')
        .header('content-disposition', `attachment; filename="${download.fileName}"`);
      // HEAD answers the same fields without a body (no length either: a download has none), and
      // reads nothing of the export.
      return reply.send(request.method === 'HEAD' ? Readable.from([]) : download.body());
    },
  };
}
