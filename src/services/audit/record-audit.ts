import type { Kysely } from 'kysely';
import { type AuditEvent, auditEventId } from '../../domain/audit-event.js';
import { insertAuditEvents } from '../../store/repositories/audit-events.js';
import type { Database } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';

export type AuditEntry = Omit<AuditEvent, 'id' | 'occurredAt' | 'actor'> & { readonly actor?: string };

/**
 * Records what a service did, in the transaction `db` belongs to, stamped with the clock and, unless
 * the entry names one, the acting operator of these deps (`cli:<user>`).
 */
export async function recordAudit(
  db: Kysely<Database>,
  deps: Pick<ServiceDeps, 'clock' | 'actor'>,
  ...entries: AuditEntry[]
): Promise<void> {
  const now = deps.clock();
  await insertAuditEvents(
    db,
    entries.map((e) => ({ ...e, id: auditEventId(now), occurredAt: now, actor: e.actor ?? deps.actor })),
  );
}
