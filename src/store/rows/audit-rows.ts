import type { Selectable } from 'kysely';

// Row type of the audit log (conventions in ../schema.ts).

/** One administrative action or privacy request state change; no personal data (see the migration). */
export interface AuditEventsTable {
  id: string;
  occurred_at: number;
  /** `cli:<user>`, `application:<id>`, `worker:<owner>` or `housekeeping`. */
  actor: string;
  /** Dotted and stable, e.g. `application.revoked`, `privacy_request.completed`. */
  action: string;
  target_type: string;
  target_id: string;
  /** JSON object of ids, counts and settings. */
  details: string;
}

export type AuditEventRow = Selectable<AuditEventsTable>;
