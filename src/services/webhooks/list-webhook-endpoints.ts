import type { Kysely } from 'kysely';
import { mentionsSecretCredential } from '../../domain/credentials.js';
import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import {
  listWebhookEndpoints as listRows,
  type WebhookEndpointListing,
} from '../../store/repositories/webhook-endpoints.js';
import type { Database } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';
import { type Page, type PageRequest, readPage } from '../paging/read-page.js';
import { resolveApplication } from '../tenancy/resolve-application.js';
import { type WebhookEndpoint, webhookEndpointView } from './webhook-endpoint-view.js';

export const SECRET_NOT_ENDPOINT =
  'that is a secret (a webhook signing secret or a credential), not a webhook endpoint id; `rpa webhooks list` shows the ids';

/**
 * One environment's endpoints, oldest first, a page at a time; only an application's when one is
 * named (by id or client id), which must then be of this environment.
 */
export async function pageWebhookEndpoints(
  deps: ServiceDeps,
  input: { environment: Environment; app?: string | undefined } & PageRequest,
): Promise<Page<WebhookEndpoint>> {
  const { environment } = input;
  const applicationId =
    input.app === undefined ? undefined : (await resolveApplication(deps, input.app, environment)).id;
  return readPage(
    input,
    async (after, limit) =>
      (
        await listRows(deps.store.db, {
          environment,
          ...(applicationId !== undefined ? { applicationId } : {}),
          after,
          limit,
          now: deps.clock(),
        })
      ).map(webhookEndpointView),
    (e) => ({ at: e.createdAt, id: e.id }),
  );
}

/** Which endpoint an operation names: its id, in the environment the operation works in. */
export interface EndpointRef {
  readonly environment: Environment;
  readonly endpointId: string;
}

/**
 * An endpoint of this environment, read in `db` (a service's transaction). One of the other
 * environment is not found: one environment's operations never reach into the other's
 * (docs/operations.md, Admin API). A secret given in the place of the id is refused without being
 * repeated, since the refusal may be logged.
 */
export async function requireWebhookEndpoint(
  db: Kysely<Database>,
  input: EndpointRef,
  now: number,
): Promise<WebhookEndpointListing> {
  if (mentionsSecretCredential(input.endpointId))
    throw new AppError('INVALID_REQUEST', { field: 'endpoint', detail: SECRET_NOT_ENDPOINT });
  const [row] = await listRows(db, { id: input.endpointId, environment: input.environment, now });
  if (!row) throw endpointNotFound(input);
  return row;
}

export function endpointNotFound(input: EndpointRef): AppError {
  return new AppError('NOT_FOUND', {
    field: 'endpoint',
    detail: `no webhook endpoint with the id ${JSON.stringify(input.endpointId.slice(0, 100))} in ${input.environment}`,
  });
}

export async function findWebhookEndpoint(deps: ServiceDeps, input: EndpointRef): Promise<WebhookEndpoint> {
  return webhookEndpointView(await requireWebhookEndpoint(deps.store.db, input, deps.clock()));
}
