import type { Kysely } from 'kysely';
import { type AuditEntry as Entry, newAuditEvent } from '../../domain/audit-event.js';
import { insertAuditEvents } from '../../store/repositories/audit-events.js';
import type { Database } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';

export type AuditEntry = Entry & { readonly actor?: string };

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
    entries.map(({ actor, ...entry }) => newAuditEvent(now, actor ?? deps.actor, entry)),
  );
}
