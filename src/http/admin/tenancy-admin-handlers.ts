import type { Environment } from '../../domain/environment.js';
import type { ServiceDeps } from '../../services/deps.js';
import { createApplication } from '../../services/tenancy/create-application.js';
import { createClient } from '../../services/tenancy/create-client.js';
import { describeApplication, listApplications } from '../../services/tenancy/list-applications.js';
import { listClients } from '../../services/tenancy/list-clients.js';
import { resolveApplication } from '../../services/tenancy/resolve-application.js';
import { retireApplicationSecret } from '../../services/tenancy/retire-application-secret.js';
import { revokeApplication } from '../../services/tenancy/revoke-application.js';
import { rotateApplicationSecret } from '../../services/tenancy/rotate-application-secret.js';
import type { RouteReply, RouteRequest } from '../route-request.js';
import { answerCreate } from './admin-create.js';
import { sendPage } from './admin-page.js';
import { callerDeps } from './caller-deps.js';
import type { tenancyOperations } from './tenancy-admin-operations.js';
import { applicationView, clientView } from './tenancy-admin-schemas.js';

type Ops = typeof tenancyOperations;
type Req<K extends keyof Ops> = RouteRequest<Ops[K]['request']>;
type Reply<K extends keyof Ops> = RouteReply<Ops[K]['request']>;

/** The handlers of tenancy-admin-operations.ts. */
export function tenancyAdminHandlers(deps: ServiceDeps) {
  const describe = async (d: ServiceDeps, environment: Environment, app: string) =>
    describeApplication(d, await resolveApplication(d, app, environment));
  return {
    async listClients(request: Req<'listClients'>, reply: Reply<'listClients'>) {
      const page = await listClients(deps, { ...request.query, environment: request.params.environment });
      return sendPage(request, reply, page, clientView);
    },
    createClient(request: Req<'createClient'>, reply: Reply<'createClient'>) {
      const { environment } = request.params;
      return answerCreate(deps, request, reply, async (d) =>
        clientView(await createClient(d, { environment, name: request.body.name })),
      );
    },
    async listApplications(request: Req<'listApplications'>, reply: Reply<'listApplications'>) {
      const page = await listApplications(deps, {
        ...request.query,
        environment: request.params.environment,
      });
      return sendPage(request, reply, page, applicationView);
    },
    async getApplication(request: Req<'getApplication'>) {
      return applicationView(await describe(deps, request.params.environment, request.params.app));
    },
    createApplication(request: Req<'createApplication'>, reply: Reply<'createApplication'>) {
      const { environment } = request.params;
      return answerCreate(deps, request, reply, async (d) => {
        const created = await createApplication(d, { environment, ...request.body });
        const listing = await describeApplication(d, created.application);
        return { ...applicationView(listing), clientSecret: created.clientSecret };
      });
    },
    rotateApplicationSecret(
      request: Req<'rotateApplicationSecret'>,
      reply: Reply<'rotateApplicationSecret'>,
    ) {
      return answerCreate(deps, request, reply, async (d) => {
        const app = await resolveApplication(d, request.params.app, request.params.environment);
        const r = await rotateApplicationSecret(d, { applicationId: app.id });
        return { applicationId: app.id, ...r };
      });
    },
    async retireApplicationSecret(request: Req<'retireApplicationSecret'>) {
      const d = callerDeps(deps, request);
      const app = await resolveApplication(d, request.params.app, request.params.environment);
      const r = await retireApplicationSecret(d, { applicationId: app.id, secretId: request.body?.secretId });
      return { applicationId: app.id, retiredSecretId: r.retiredSecretId };
    },
    async revokeApplication(request: Req<'revokeApplication'>) {
      const d = callerDeps(deps, request);
      const app = await resolveApplication(d, request.params.app, request.params.environment);
      await revokeApplication(d, { applicationId: app.id });
      return applicationView(await describe(d, request.params.environment, app.id));
    },
  };
}
