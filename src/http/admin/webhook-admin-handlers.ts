import type { Environment } from '../../domain/environment.js';
import { iso } from '../../domain/instant.js';
import type { ServiceDeps } from '../../services/deps.js';
import { resolveApplication } from '../../services/tenancy/resolve-application.js';
import { addWebhookEndpoint } from '../../services/webhooks/add-webhook-endpoint.js';
import { checkWebhookUrl } from '../../services/webhooks/check-webhook-url.js';
import { enableWebhookEndpoint } from '../../services/webhooks/enable-webhook-endpoint.js';
import { pageWebhookDeliveries } from '../../services/webhooks/list-webhook-deliveries.js';
import { findWebhookEndpoint, pageWebhookEndpoints } from '../../services/webhooks/list-webhook-endpoints.js';
import { removeWebhookEndpoint } from '../../services/webhooks/remove-webhook-endpoint.js';
import {
  DEFAULT_SECRET_GRACE_MS,
  rotateWebhookSecret,
} from '../../services/webhooks/rotate-webhook-secret.js';
import type { RouteReply, RouteRequest } from '../route-request.js';
import { answerCreate } from './admin-create.js';
import { sendPage } from './admin-page.js';
import { callerDeps } from './caller-deps.js';
import type { webhookOperations } from './webhook-admin-operations.js';
import { deliveryView, endpointView } from './webhook-admin-schemas.js';

type Ops = typeof webhookOperations;
type Req<K extends keyof Ops> = RouteRequest<Ops[K]['request']>;
type Reply<K extends keyof Ops> = RouteReply<Ops[K]['request']>;

/** The handlers of webhook-admin-operations.ts. */
export function webhookAdminHandlers(deps: ServiceDeps) {
  // Every operation on an endpoint finds it in the path's environment: 404 in the other.
  const endpointIn = (params: { environment: Environment; id: string }) => ({
    environment: params.environment,
    endpointId: params.id,
  });
  return {
    async listWebhookEndpoints(request: Req<'listWebhookEndpoints'>, reply: Reply<'listWebhookEndpoints'>) {
      const { environment } = request.params;
      const page = await pageWebhookEndpoints(deps, { ...request.query, environment });
      return sendPage(request, reply, page, endpointView(environment));
    },
    async addWebhookEndpoint(request: Req<'addWebhookEndpoint'>, reply: Reply<'addWebhookEndpoint'>) {
      const { environment } = request.params;
      const { app, events } = request.body;
      // Before the create's transaction: the check resolves the host, which may take seconds.
      const url = await checkWebhookUrl(deps, request.body.url);
      return answerCreate(deps, request, reply, async (d) => {
        const application = await resolveApplication(d, app, environment);
        const added = await addWebhookEndpoint(d, {
          applicationId: application.id,
          url,
          ...(events !== undefined ? { eventTypes: events } : {}),
        });
        return { ...endpointView(environment)(added.endpoint), secret: added.secret };
      });
    },
    async getWebhookEndpoint(request: Req<'getWebhookEndpoint'>) {
      return endpointView(request.params.environment)(
        await findWebhookEndpoint(deps, endpointIn(request.params)),
      );
    },
    async removeWebhookEndpoint(
      request: Req<'removeWebhookEndpoint'>,
      reply: Reply<'removeWebhookEndpoint'>,
    ) {
      await removeWebhookEndpoint(callerDeps(deps, request), endpointIn(request.params));
      return reply.code(204).send();
    },
    rotateWebhookSecret(request: Req<'rotateWebhookSecret'>, reply: Reply<'rotateWebhookSecret'>) {
      const graceSeconds = request.body.graceSeconds;
      return answerCreate(deps, request, reply, async (d) => {
        const r = await rotateWebhookSecret(d, {
          ...endpointIn(request.params),
          graceMs: graceSeconds === undefined ? DEFAULT_SECRET_GRACE_MS : graceSeconds * 1000,
        });
        const previousSecretSignsUntil = iso(r.previousExpiresAt);
        return { endpointId: request.params.id, secret: r.secret, previousSecretSignsUntil };
      });
    },
    async enableWebhookEndpoint(request: Req<'enableWebhookEndpoint'>) {
      const d = callerDeps(deps, request);
      await enableWebhookEndpoint(d, endpointIn(request.params));
      return endpointView(request.params.environment)(
        await findWebhookEndpoint(d, endpointIn(request.params)),
      );
    },
    async listWebhookDeliveries(
      request: Req<'listWebhookDeliveries'>,
      reply: Reply<'listWebhookDeliveries'>,
    ) {
      const { endpoint, webhookId, ...query } = request.query;
      const page = await pageWebhookDeliveries(deps, {
        ...query,
        environment: request.params.environment,
        endpointId: endpoint,
        messageId: webhookId,
      });
      return sendPage(request, reply, page, deliveryView);
    },
  };
}
