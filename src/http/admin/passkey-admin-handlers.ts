import type { PasskeyLimits } from '../../domain/passkey.js';
import type { ServiceDeps } from '../../services/deps.js';
import { createPasskey } from '../../services/tenancy/create-passkey.js';
import { findPasskey, listPasskeys } from '../../services/tenancy/list-passkeys.js';
import { resolveApplication } from '../../services/tenancy/resolve-application.js';
import { updatePasskey } from '../../services/tenancy/update-passkey.js';
import type { RouteReply, RouteRequest } from '../route-request.js';
import { answerCreate } from './admin-create.js';
import { sendPage } from './admin-page.js';
import { callerDeps } from './caller-deps.js';
import type { passkeyOperations } from './passkey-admin-operations.js';
import { passkeyView } from './passkey-admin-schemas.js';

type Ops = typeof passkeyOperations;
type Req<K extends keyof Ops> = RouteRequest<Ops[K]['request']>;
type Reply<K extends keyof Ops> = RouteReply<Ops[K]['request']>;

/** The limits a body gives, in the services' names, leaving out those not given. */
const limitsOf = (body: { rateLimitPerMinute?: number; quotaPerDay?: number }): PasskeyLimits => ({
  ...(body.rateLimitPerMinute !== undefined ? { ratePerMinute: body.rateLimitPerMinute } : {}),
  ...(body.quotaPerDay !== undefined ? { quotaPerDay: body.quotaPerDay } : {}),
});

/** The handlers of passkey-admin-operations.ts. */
export function passkeyAdminHandlers(deps: ServiceDeps) {
  const view = <P extends Parameters<typeof passkeyView>[0]>(p: P) => passkeyView(p, deps.clock());
  return {
    async listPasskeys(request: Req<'listPasskeys'>, reply: Reply<'listPasskeys'>) {
      const { environment } = request.params;
      const { app, ...paging } = request.query;
      const applicationId =
        app === undefined ? undefined : (await resolveApplication(deps, app, environment)).id;
      const page = await listPasskeys(deps, { ...paging, environment, applicationId });
      return sendPage(request, reply, page, view);
    },
    createPasskey(request: Req<'createPasskey'>, reply: Reply<'createPasskey'>) {
      const { environment, app } = request.params;
      const { api, expiresAt, name } = request.body;
      return answerCreate(deps, request, reply, async (d) => {
        const application = await resolveApplication(d, app, environment);
        const created = await createPasskey(d, {
          applicationId: application.id,
          api,
          ...(name !== undefined ? { name } : {}),
          ...limitsOf(request.body),
          ...(expiresAt !== undefined ? { expiresAt: Date.parse(expiresAt) } : {}),
        });
        return { ...view(created.passkey), passkey: created.value };
      });
    },
    async getPasskey(request: Req<'getPasskey'>) {
      const { environment, id } = request.params;
      return view(await findPasskey(deps, { passkeyId: id, environment }));
    },
    async updatePasskey(request: Req<'updatePasskey'>) {
      const { environment, id } = request.params;
      const { expiresAt, name } = request.body;
      const updated = await updatePasskey(callerDeps(deps, request), {
        passkeyId: id,
        environment,
        ...(name !== undefined ? { name } : {}),
        ...limitsOf(request.body),
        ...(expiresAt !== undefined ? { expiresAt: expiresAt === null ? null : Date.parse(expiresAt) } : {}),
      });
      return view(updated);
    },
    async revokePasskey(request: Req<'revokePasskey'>) {
      const { environment, id } = request.params;
      return view(
        await updatePasskey(callerDeps(deps, request), { passkeyId: id, environment, revoke: true }),
      );
    },
  };
}
