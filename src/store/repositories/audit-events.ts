import type { Kysely } from 'kysely';
import type { AuditAction, AuditEvent, AuditTargetType } from '../../domain/audit-event.js';
import type { PagePosition } from '../../domain/page-cursor.js';
import { chunks } from '../chunks.js';
import { afterPosition, type PageOrder } from '../keyset-page.js';
import { preparedInsert } from '../prepared-query.js';
import type { AuditEventRow, Database } from '../schema.js';

// Seven columns a row: well under SQLite's 32766 bound parameters per statement.
const INSERT_CHUNK = 500;

export function auditEventRow(e: AuditEvent): AuditEventRow {
  return {
    id: e.id,
    occurred_at: e.occurredAt,
    actor: e.actor,
    action: e.action,
    target_type: e.targetType,
    target_id: e.targetId,
    details: JSON.stringify(e.details),
  };
}

// Compiled once per row count: one event per privacy request accepted, a batch's per erasure.
const eventsInsert = preparedInsert(
  'audit_events',
  ['id', 'occurred_at', 'actor', 'action', 'target_type', 'target_id', 'details'],
  64,
);

/** Appends events in the caller's transaction, so an event exists exactly when its change committed. */
export async function insertAuditEvents(db: Kysely<Database>, events: readonly AuditEvent[]): Promise<void> {
  for (const part of chunks(events, INSERT_CHUNK)) {
    await eventsInsert.execute(db, part.map(auditEventRow));
  }
}

function toAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    occurredAt: Number(row.occurred_at),
    actor: row.actor,
    action: row.action as AuditAction,
    targetType: row.target_type as AuditTargetType,
    targetId: row.target_id,
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}

export interface AuditEventFilter {
  /** Events at or after this time. */
  readonly since?: number | undefined;
  readonly action?: string | undefined;
  readonly targetId?: string | undefined;
}

/** A page of the trail by (occurred_at, id), which audit_events_time_idx serves either way. */
export async function pageAuditEvents(
  db: Kysely<Database>,
  filter: AuditEventFilter,
  after: PagePosition | null,
  limit: number,
  order: PageOrder = 'asc',
): Promise<AuditEvent[]> {
  let query = db.selectFrom('audit_events').selectAll();
  if (filter.since !== undefined) query = query.where('occurred_at', '>=', filter.since);
  if (filter.targetId !== undefined) query = query.where('target_id', '=', filter.targetId);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (after) query = query.where(afterPosition('occurred_at', 'id', after, order));
  const rows = await query.orderBy('occurred_at', order).orderBy('id', order).limit(limit).execute();
  return rows.map(toAuditEvent);
}
