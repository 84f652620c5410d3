import { Type } from 'typebox';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/webhook-event.js';

/** The body of every privacy request event (docs/webhooks.md): ids and links, never whom it is about. */
export const PrivacyRequestEvent = Type.Object(
  {
    type: Type.Union(WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t))),
    timestamp: Type.String({ format: 'date-time', description: 'When the change happened' }),
    data: Type.Object({
      id: Type.String({ description: 'The privacy request' }),
      clientNames: Type.Array(Type.String()),
      status: Type.Union([Type.Literal('PENDING'), Type.Literal('COMPLETED')]),
      links: Type.Object({
        self: Type.String({ description: 'The request, on the host it was filed on' }),
        export: Type.Optional(Type.String({ description: 'Access requests, once completed: the download' })),
      }),
    }),
  },
  { $id: 'PrivacyRequestEvent' },
);

const SUMMARY: Record<WebhookEventType, string> = {
  'privacy.forget_request.created': 'A forget request was accepted',
  'privacy.forget_request.completed': 'A forget request was carried out',
  'privacy.access_request.created': 'An access request was accepted',
  'privacy.access_request.completed': "An access request's export is ready",
};

const HEADERS = [
  {
    name: 'webhook-id',
    description: 'The event id (msg_...), the same on every attempt: receivers dedupe on it',
  },
  { name: 'webhook-timestamp', description: 'When this attempt was sent, in Unix seconds' },
  {
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per live secret (two during a rotation)',
  },
].map((h) => ({ in: 'header' as const, required: true, schema: { type: 'string' as const }, ...h }));

/**
 * The `webhooks` of the OpenAPI 3.1 document: what the server POSTs to the endpoints an operator
 * registered (Standard Webhooks). They are not routes of this server, so they are described here.
 */
export function webhookDefinitions() {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replaceAll('.', '_')}`,
          summary: SUMMARY[type],
          description:
            'Sent to each endpoint subscribed to this event, signed as Standard Webhooks describes; ' +
            'retried for more than 24 hours until a 2xx answer. Verify with a Standard Webhooks library.',
          tags: ['Webhooks'],
          security: [],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/PrivacyRequestEvent' } } },
          },
          responses: {
            '200': { description: 'Any 2xx: received' },
            '410': { description: 'Gone: the endpoint is disabled until an operator enables it again' },
          },
        },
      },
    ]),
  );
}
