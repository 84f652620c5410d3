import { type TSchema, Type } from 'typebox';
import type { Environment as EnvironmentName } from '../../domain/environment.js';
import { iso, isoOrNull } from '../../domain/instant.js';
import { WEBHOOK_DELIVERY_STATUSES } from '../../domain/webhook-delivery-status.js';
import type { WebhookDelivery } from '../../services/webhooks/list-webhook-deliveries.js';
import type { WebhookEndpoint } from '../../services/webhooks/webhook-endpoint-view.js';
import { pageOf } from './admin-page.js';
import { Environment, Instant, InstantOrNull } from './admin-schemas.js';

/** At most what a rotated-out secret may keep signing: 30 days. */
const MAX_GRACE_SECONDS = 30 * 86_400;

const endpointFields = {
  id: Type.String(),
  applicationId: Type.String(),
  environment: Environment,
  url: Type.String({ description: 'Where the events are POSTed' }),
  events: Type.Array(Type.String(), { description: 'The event types it receives' }),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
    description: 'disabled once it answered 410 Gone, until it is enabled again',
  }),
  disabledAt: InstantOrNull,
  disabledReason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Instant,
  liveSecrets: Type.Integer({
    description: "Secrets that sign now: two during a rotation's grace period (never the secrets)",
  }),
};
export const AdminWebhookEndpoint = Type.Object(endpointFields, {
  $id: 'AdminWebhookEndpoint',
  additionalProperties: false,
});
export const AdminWebhookEndpointPage = pageOf(AdminWebhookEndpoint, 'AdminWebhookEndpointPage');
export const CreatedWebhookEndpoint = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({ description: 'The signing secret (whsec_…): shown once, give it to the receiver' }),
  },
  { $id: 'CreatedWebhookEndpoint', additionalProperties: false },
);
export const NewWebhookEndpoint = Type.Object(
  {
    app: Type.String({ maxLength: 200, description: 'The application, by id or client id' }),
    url: Type.String({ maxLength: 2048, description: 'https, on a public address' }),
    events: Type.Optional(
      Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20, description: 'Default: every event type' }),
    ),
  },
  { additionalProperties: false },
);
export const RotateWebhookSecret = Type.Object(
  {
    graceSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_GRACE_SECONDS,
        description: 'How long the old secret keeps signing beside the new one (default 86400, a day)',
      }),
    ),
  },
  { additionalProperties: false },
);
export const RotatedWebhookSecret = Type.Object(
  {
    endpointId: Type.String(),
    secret: Type.String({ description: 'The new signing secret (whsec_…): shown once' }),
    previousSecretSignsUntil: Instant,
  },
  { $id: 'RotatedWebhookSecret', additionalProperties: false },
);

export const DeliveryStatus = Type.Union(
  WEBHOOK_DELIVERY_STATUSES.map((s) => Type.Literal(s)),
  { description: 'pending until a 2xx answer (delivered), or its last attempt or a 410 (failed)' },
);
const AdminWebhookDelivery = Type.Object(
  {
    id: Type.String(),
    webhookId: Type.String({ description: 'The event id (msg_…), its webhook-id header' }),
    event: Type.String(),
    applicationId: Type.String(),
    endpointId: Type.String(),
    status: DeliveryStatus,
    attempts: Type.Integer(),
    createdAt: Instant,
    lastAttemptAt: InstantOrNull,
    lastStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last attempt' }),
    lastError: Type.Union([Type.String(), Type.Null()]),
    nextAttemptAt: Type.Union([Instant, Type.Null()], {
      description: 'When it is tried again (pending only)',
    }),
    finishedAt: InstantOrNull,
  },
  { $id: 'AdminWebhookDelivery', additionalProperties: false },
);
export const AdminWebhookDeliveryPage = pageOf(AdminWebhookDelivery, 'AdminWebhookDeliveryPage');

export const endpointView = (environment: EnvironmentName) => (e: WebhookEndpoint) => ({
  id: e.id,
  applicationId: e.applicationId,
  environment,
  url: e.url,
  events: [...e.eventTypes],
  status: e.status,
  disabledAt: isoOrNull(e.disabledAt),
  disabledReason: e.disabledReason,
  createdAt: iso(e.createdAt),
  liveSecrets: e.liveSecrets,
});

export const deliveryView = (d: WebhookDelivery) => ({
  id: d.id,
  webhookId: d.messageId,
  event: d.eventType,
  applicationId: d.applicationId,
  endpointId: d.endpointId,
  status: d.status,
  attempts: d.attempts,
  createdAt: iso(d.createdAt),
  lastAttemptAt: isoOrNull(d.lastAttemptAt),
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  nextAttemptAt: isoOrNull(d.nextAttemptAt),
  finishedAt: isoOrNull(d.finishedAt),
});

export const WEBHOOK_TAG = {
  name: 'Webhooks',
  description: 'Webhook endpoints of applications, their secrets and deliveries',
};

/** The schemas its answers refer to by name (admin-openapi.ts registers them). */
export const WEBHOOK_ADMIN_SCHEMAS: readonly TSchema[] = [
  AdminWebhookEndpoint,
  AdminWebhookEndpointPage,
  CreatedWebhookEndpoint,
  RotatedWebhookSecret,
  AdminWebhookDelivery,
  AdminWebhookDeliveryPage,
];
