import type { AuditEvent } from '../../domain/audit-event.js';
import type { PageOrder } from '../../store/keyset-page.js';
import { type AuditEventFilter, pageAuditEvents } from '../../store/repositories/audit-events.js';
import type { ServiceDeps } from '../deps.js';
import { type Page, type PageRequest, readPage } from '../paging/read-page.js';

/**
 * The audit trail a page at a time, oldest first or newest first: `rpa audit` reads the latest
 * events newest first and prints them the other way round.
 */
export function readAuditTrail(
  deps: ServiceDeps,
  input: AuditEventFilter & PageRequest & { readonly order?: PageOrder | undefined },
): Promise<Page<AuditEvent>> {
  const filter = { since: input.since, action: input.action, targetId: input.targetId };
  return readPage(
    input,
    (after, limit) => pageAuditEvents(deps.store.db, filter, after, limit, input.order),
    (e) => ({ at: e.occurredAt, id: e.id }),
  );
}
