import { type AuditEvent, auditActor, newAuditEvent } from '../../domain/audit-event.js';
import { parseReceipt, type Receipt } from '../../domain/privacy-receipt.js';
import type { PrivacyRequest } from '../../domain/privacy-request.js';
import { privacyRequestEvent, type WebhookEvent } from '../../domain/webhook-event.js';
import type { PrivacyRequestRow } from '../../store/schema.js';

/**
 * The audit trail's record of a privacy request's life: which kinds of identifier were named,
 * which client instances, when, and what was erased or exported as counts. Never an identifier's
 * value, masked value or keyed hash (docs/operations.md, Audit trail).
 */
export function creationEvent(request: PrivacyRequest): AuditEvent {
  return newAuditEvent(request.submittedAt, auditActor.application(request.applicationId), {
    action: 'privacy_request.created',
    targetType: 'privacy_request',
    targetId: request.id,
    details: {
      type: request.type,
      environment: request.environment,
      clientNames: request.clientNames,
      identifierKinds: request.identifiers.map((i) => i.kind),
      dueAt: request.dueAt,
    },
  });
}

/** The receipt names client instances and counts rows: what was done, not to whom. */
export function completionEvent(
  request: PrivacyRequestRow,
  receipt: Receipt,
  at: { now: number; owner: string },
): AuditEvent {
  return newAuditEvent(at.now, auditActor.worker(at.owner), {
    action: 'privacy_request.completed',
    targetType: 'privacy_request',
    targetId: request.id,
    details: { ...storedFacts(request), receipt },
  });
}

/** What outlives a request deleted at the end of its retention: its receipt, here. */
export function purgeEvent(request: PrivacyRequestRow, now: number): AuditEvent {
  return newAuditEvent(now, auditActor.housekeeping, {
    action: 'privacy_request.purged',
    targetType: 'privacy_request',
    targetId: request.id,
    details: {
      ...storedFacts(request),
      completedAt: request.completed_at === null ? null : Number(request.completed_at),
      receipt: parseReceipt(request.receipt),
    },
  });
}

function storedFacts(request: PrivacyRequestRow) {
  return {
    type: request.type,
    environment: request.environment,
    applicationId: request.application_id,
    submittedAt: Number(request.submitted_at),
  };
}

/** The `privacy.<type>_request.created` event, with links on the host the request was filed on. */
export function creationWebhook(request: PrivacyRequest, baseUrl: string | null): WebhookEvent {
  return privacyRequestEvent('created', { ...request, baseUrl }, request.submittedAt);
}

/** The `privacy.<type>_request.completed` event; an access request's links include its export. */
export function completionWebhook(
  request: PrivacyRequestRow,
  clientNames: Iterable<string>,
  now: number,
): WebhookEvent {
  return privacyRequestEvent(
    'completed',
    {
      id: request.id,
      type: request.type,
      status: 'COMPLETED',
      applicationId: request.application_id,
      clientNames: [...clientNames],
      baseUrl: request.base_url,
    },
    now,
  );
}
