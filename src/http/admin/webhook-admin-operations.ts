import { Type } from 'typebox';
import { adminOperations, CREATE_ERRORS } from './admin-operation.js';
import { PAGE_HEADERS, PAGE_QUERY } from './admin-page.js';
import { Environment, EnvironmentParams } from './admin-schemas.js';
import * as S from './webhook-admin-schemas.js';

const EndpointParams = Type.Object({
  environment: Environment,
  id: Type.String({ maxLength: 100, description: 'The endpoint id' }),
});
const AppFilter = Type.String({
  maxLength: 200,
  description: 'Only this application (id or client id) of the environment',
});
const NO_ENDPOINT = {
  400: 'The id is a secret, not an endpoint id (refused without being repeated)',
  404: 'No such webhook endpoint in this environment',
} as const;

/** Webhook endpoints, their signing secrets and deliveries (docs/webhooks.md, docs/operations.md). */
export const webhookOperations = adminOperations('Webhooks', {
  listWebhookEndpoints: {
    summary: "List the environment's webhook endpoints, oldest first, never their secrets",
    scope: 'webhooks:read',
    request: {
      params: EnvironmentParams,
      querystring: Type.Object({ ...PAGE_QUERY, app: Type.Optional(AppFilter) }),
    },
    answer: { status: 200, schema: S.AdminWebhookEndpointPage, headers: PAGE_HEADERS },
    errors: { 400: 'The limit, cursor or app is invalid', 404: 'No such application in this environment' },
  },
  addWebhookEndpoint: {
    summary: 'Register an endpoint for an application; its signing secret is shown once',
    scope: 'webhooks:write',
    idempotent: true,
    request: { params: EnvironmentParams, body: S.NewWebhookEndpoint },
    answer: { status: 201, schema: S.CreatedWebhookEndpoint, description: 'Created' },
    errors: {
      400: `${CREATE_ERRORS[400]}: a URL that is not public https, or an unknown event type`,
      404: 'No such application in this environment',
      409: 'The application is revoked, or has as many endpoints as it may',
    },
  },
  getWebhookEndpoint: {
    summary: 'Read a webhook endpoint',
    scope: 'webhooks:read',
    request: { params: EndpointParams },
    answer: { status: 200, schema: S.AdminWebhookEndpoint },
    errors: NO_ENDPOINT,
  },
  removeWebhookEndpoint: {
    summary: 'Remove an endpoint; its undelivered events are dropped',
    scope: 'webhooks:write',
    request: { params: EndpointParams },
    answer: { status: 204, schema: null, description: 'Removed' },
    errors: NO_ENDPOINT,
  },
  rotateWebhookSecret: {
    summary: 'Give an endpoint a new signing secret; the old one also signs during the grace period',
    scope: 'webhooks:write',
    idempotent: true,
    request: { params: EndpointParams, body: S.RotateWebhookSecret },
    answer: { status: 201, schema: S.RotatedWebhookSecret, description: 'Created' },
    errors: { ...NO_ENDPOINT, 400: `${CREATE_ERRORS[400]}, or the id is a secret` },
  },
  enableWebhookEndpoint: {
    summary: 'Send to an endpoint again after it answered 410 Gone',
    scope: 'webhooks:write',
    request: { params: EndpointParams },
    answer: { status: 200, schema: S.AdminWebhookEndpoint },
    errors: NO_ENDPOINT,
  },
  listWebhookDeliveries: {
    summary: "List the environment's deliveries, newest event first: status, attempts, last answer",
    scope: 'webhooks:read',
    request: {
      params: EnvironmentParams,
      querystring: Type.Object({
        ...PAGE_QUERY,
        app: Type.Optional(AppFilter),
        endpoint: Type.Optional(Type.String({ maxLength: 100, description: 'Only this endpoint' })),
        status: Type.Optional(S.DeliveryStatus),
        webhookId: Type.Optional(
          Type.String({ maxLength: 100, description: 'Only this event (its webhook-id, msg_…)' }),
        ),
      }),
    },
    answer: { status: 200, schema: S.AdminWebhookDeliveryPage, headers: PAGE_HEADERS },
    errors: {
      400: 'A filter, the limit or the cursor is invalid',
      404: 'No such application or endpoint in this environment',
    },
  },
});
