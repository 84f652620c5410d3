import { uuidV7 } from './uuid-v7.js';

/**
 * What the audit trail records. Names are stable: operators filter on them and keep them in
 * their own log stores. Targets and details are ids, counts and settings, never personal data
 * and never a credential (docs/operations.md, Audit trail).
 */
const AUDIT_ACTIONS = [
  'client.created',
  'client.adopted',
  'application.created',
  'application.adopted',
  'application.updated',
  'application.revoked',
  'application.secret_rotated',
  'application.secret_retired',
  'passkey.created',
  'passkey.updated',
  'passkey.revoked',
  'passkey.adopted',
  'signing_key.rotated',
  'suppression.lifted',
  'privacy_request.created',
  'privacy_request.completed',
  'privacy_request.purged',
  'webhook_endpoint.created',
  'webhook_endpoint.removed',
  'webhook_endpoint.adopted',
  'webhook_endpoint.updated',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.disabled',
  'webhook_endpoint.enabled',
  'admin_token.created',
  'admin_token.revoked',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditTargetType =
  | 'client'
  | 'application'
  | 'passkey'
  | 'signing_key'
  | 'suppression'
  | 'privacy_request'
  | 'webhook_endpoint'
  | 'admin_token';

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

/**
 * An event of `entry`, done by `actor` at `at`; `sequence` is its place among the events recorded
 * together at `at`.
 */
export function newAuditEvent(at: number, actor: string, entry: AuditEntry, sequence?: number): AuditEvent {
  // Time-ordered ids: the trail reads in order by id alone, events of one change in their order.
  return { id: uuidV7(at, sequence), occurredAt: at, actor, ...entry };
}

/** Who acts: `cli:<user>`, `application:<id>`, `worker:<owner>`, `housekeeping`. */
export const auditActor = {
  application: (applicationId: string) => `application:${applicationId}`,
  worker: (owner: string) => `worker:${owner}`,
  housekeeping: 'housekeeping',
} as const;
