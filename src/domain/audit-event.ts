import { randomBytes } from 'node:crypto';

/**
 * What the audit trail records. Names are stable: operators filter on them and keep them in
 * their own log stores. Targets and details are ids, counts and settings, never personal data
 * and never a credential (docs/operations.md, Audit trail).
 */
export const AUDIT_ACTIONS = [
  'client.created',
  'application.created',
  'application.revoked',
  'application.secret_rotated',
  'application.secret_retired',
  'passkey.created',
  'passkey.updated',
  'passkey.revoked',
  'signing_key.rotated',
  'suppression.lifted',
  'privacy_request.created',
  'privacy_request.completed',
  'privacy_request.purged',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditTargetType =
  | 'client'
  | 'application'
  | 'passkey'
  | 'signing_key'
  | 'suppression'
  | 'privacy_request';

export interface AuditEvent {
  readonly id: string;
  readonly occurredAt: number;
  readonly actor: string;
  readonly action: AuditAction;
  readonly targetType: AuditTargetType;
  readonly targetId: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** What a change says about itself; the trail stamps the id, the time and the actor. */
export type AuditEntry = Omit<AuditEvent, 'id' | 'occurredAt' | 'actor'>;

/** An event of `entry`, done by `actor` at `at`. */
export function newAuditEvent(at: number, actor: string, entry: AuditEntry): AuditEvent {
  return { id: auditEventId(at), occurredAt: at, actor, ...entry };
}

/**
 * A UUIDv7 (RFC 9562 §5.7): the time leads, so ids sort as events happened and the trail reads in
 * order without a separate sequence on either database.
 */
function auditEventId(at: number): string {
  const b = randomBytes(16);
  b.writeUIntBE(Math.max(0, Math.floor(at)), 0, 6);
  b[6] = ((b[6] as number) & 0x0f) | 0x70;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Who acts: `cli:<user>`, `application:<id>`, `worker:<owner>`, `housekeeping`. */
export const auditActor = {
  application: (applicationId: string) => `application:${applicationId}`,
  worker: (owner: string) => `worker:${owner}`,
  housekeeping: 'housekeeping',
} as const;
