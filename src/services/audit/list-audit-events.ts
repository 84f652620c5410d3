import type { AuditEvent } from '../../domain/audit-event.js';
import { listAuditEvents as selectAuditEvents } from '../../store/repositories/audit-events.js';
import type { ServiceDeps } from '../deps.js';

export const MAX_AUDIT_LIST = 10_000;

/** The latest events (at most `limit`, at or after `since`), oldest first, as `rpa audit` prints them. */
export async function listAuditEvents(
  deps: ServiceDeps,
  input: { since?: number; limit: number; targetId?: string; action?: string },
): Promise<AuditEvent[]> {
  return selectAuditEvents(deps.store.db, { ...input, limit: Math.min(input.limit, MAX_AUDIT_LIST) });
}
