import type { Kysely } from 'kysely';
import { type AuditEntry as Entry, newAuditEvent } from '../../domain/audit-event.js';
import { insertAuditEvents } from '../../store/repositories/audit-events.js';
import { bumpTenancyRevisions } from '../../store/repositories/tenancy-revisions.js';
import type { Database } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';

export type AuditEntry = Entry & { readonly actor?: string };

/** What a configuration file can name: a change to one moves its environment's tenancy revision. */
const TENANCY_TARGETS = new Set(['client', 'application', 'passkey', 'webhook_endpoint']);

/**
 * Records what a service did, in the transaction `db` belongs to, stamped with the clock and, unless
 * the entry names one, the acting operator of these deps (`cli:<user>`). Every change of a tenancy
 * is recorded here, so here, in the same transaction, its environment's revision moves on: a plan
 * computed before it no longer applies (services/tenancy-config).
 */
export async function recordAudit(
  db: Kysely<Database>,
  deps: Pick<ServiceDeps, 'clock' | 'actor'>,
  ...entries: AuditEntry[]
): Promise<void> {
  const now = deps.clock();
  await insertAuditEvents(
    db,
    // Numbered in order: entries of one change share `now` and read back as they were given.
    entries.map(({ actor, ...entry }, i) => newAuditEvent(now, actor ?? deps.actor, entry, i)),
  );
  await bumpTenancyRevisions(
    db,
    entries
      .filter((e) => TENANCY_TARGETS.has(e.targetType))
      .map((e) => ({
        environment: e.details.environment,
        applicationId: e.targetType === 'application' ? e.targetId : e.details.applicationId,
      })),
  );
}
