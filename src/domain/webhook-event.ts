import {
  type PrivacyRequestStatus,
  type PrivacyRequestType,
  privacyRequestLinks,
} from './privacy-request.js';
import { uuidV7 } from './uuid-v7.js';

/** The events an endpoint can subscribe to (docs/webhooks.md). Names are stable. */
export const WEBHOOK_EVENT_TYPES = [
  'privacy.forget_request.created',
  'privacy.forget_request.completed',
  'privacy.access_request.created',
  'privacy.access_request.completed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** One event as written to the outbox: the body is fixed here, so every attempt sends the same bytes. */
export interface WebhookEvent {
  /** The `webhook-id` of every delivery of this event: receivers dedupe on it. */
  readonly id: string;
  readonly applicationId: string;
  readonly type: WebhookEventType;
  readonly createdAt: number;
  /** The JSON body, serialized once. */
  readonly payload: string;
}

/** What a privacy request event tells: ids, client names, status and links, never who it is about. */
export interface PrivacyEventFacts {
  readonly id: string;
  readonly type: PrivacyRequestType;
  readonly status: PrivacyRequestStatus;
  readonly applicationId: string;
  readonly clientNames: readonly string[];
  /** Scheme and host the request was filed on; links are relative when it is unknown. */
  readonly baseUrl: string | null;
}

/**
 * A privacy request was created or completed (Standard Webhooks' thin payload: `type`, `timestamp`,
 * `data`). A receiver that wants more reads the request at `data.links.self` with its own token.
 */
export function privacyRequestEvent(
  phase: 'created' | 'completed',
  request: PrivacyEventFacts,
  at: number,
): WebhookEvent {
  const type: WebhookEventType = `privacy.${request.type}_request.${phase}`;
  const body = {
    type,
    timestamp: new Date(at).toISOString(),
    data: {
      id: request.id,
      clientNames: [...request.clientNames].sort(),
      status: request.status,
      links: privacyRequestLinks(request.baseUrl ?? '', {
        type: request.type,
        id: request.id,
        // An access request's export exists from its completion on.
        exportAvailable: request.type === 'access' && phase === 'completed',
      }),
    },
  };
  return {
    id: webhookMessageId(at),
    applicationId: request.applicationId,
    type,
    createdAt: at,
    payload: JSON.stringify(body),
  };
}

/** `msg_` and a UUIDv7: ids sort by event time, which is the order the outbox is read in. */
function webhookMessageId(at: number): string {
  return `msg_${uuidV7(at).replaceAll('-', '')}`;
}
