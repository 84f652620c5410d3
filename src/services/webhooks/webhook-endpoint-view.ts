import type { WebhookEndpointListing } from '../../store/repositories/webhook-endpoints.js';

/** An endpoint as operators see it: never its secrets, only how many sign. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly applicationId: string;
  readonly url: string;
  readonly eventTypes: readonly string[];
  readonly createdAt: number;
  readonly status: 'enabled' | 'disabled';
  readonly disabledAt: number | null;
  readonly disabledReason: string | null;
  /** Two during a secret rotation's grace period, one otherwise. */
  readonly liveSecrets: number;
}

export function webhookEndpointView(row: WebhookEndpointListing): WebhookEndpoint {
  return {
    id: row.id,
    applicationId: row.application_id,
    url: row.url,
    eventTypes: row.eventTypes,
    createdAt: Number(row.created_at),
    status: row.disabled_at === null ? 'enabled' : 'disabled',
    disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
    disabledReason: row.disabled_reason,
    liveSecrets: row.liveSecrets,
  };
}
