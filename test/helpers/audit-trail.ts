import type { AuditEvent } from '../../src/domain/audit-event.js';
import { readAuditTrail } from '../../src/services/audit/read-audit-trail.js';
import type { ServiceDeps } from '../../src/services/deps.js';
import type { AuditEventFilter } from '../../src/store/repositories/audit-events.js';

/** The whole audit trail (or the events the filter names), oldest first, every page of it read. */
export async function auditTrail(deps: ServiceDeps, filter: AuditEventFilter = {}): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | undefined;
  do {
    const page = await readAuditTrail(deps, { ...filter, limit: 1000, ...(cursor ? { cursor } : {}) });
    events.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return events;
}
