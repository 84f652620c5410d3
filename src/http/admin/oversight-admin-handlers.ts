import { iso } from '../../domain/instant.js';
import { readAuditTrail } from '../../services/audit/read-audit-trail.js';
import { rotateSigningKey } from '../../services/auth/rotate-signing-key.js';
import type { ServiceDeps } from '../../services/deps.js';
import { liftSuppression } from '../../services/privacy/lift-suppression.js';
import { listEnvironmentPrivacyRequests } from '../../services/privacy/list-environment-privacy-requests.js';
import { resolveApplication } from '../../services/tenancy/resolve-application.js';
import type { RouteReply, RouteRequest } from '../route-request.js';
import { answerCreate } from './admin-create.js';
import { sendPage } from './admin-page.js';
import type { oversightOperations } from './oversight-admin-operations.js';
import { auditEventView, privacyRequestView } from './oversight-admin-schemas.js';

type Ops = typeof oversightOperations;
type Req<K extends keyof Ops> = RouteRequest<Ops[K]['request']>;
type Reply<K extends keyof Ops> = RouteReply<Ops[K]['request']>;

/** The API's `order` as the keyset reads it. */
const direction = (order: 'oldest' | 'newest' | undefined) => (order === 'newest' ? 'desc' : 'asc');

/** The handlers of oversight-admin-operations.ts. */
export function oversightAdminHandlers(deps: ServiceDeps) {
  return {
    async listPrivacyRequests(request: Req<'listPrivacyRequests'>, reply: Reply<'listPrivacyRequests'>) {
      const { environment } = request.params;
      const { applicationId } = request.query;
      // An application named as a filter is of this environment, as everywhere (404 otherwise).
      const application =
        applicationId === undefined ? undefined : await resolveApplication(deps, applicationId, environment);
      const page = await listEnvironmentPrivacyRequests(deps, {
        ...request.query,
        applicationId: application?.id,
        order: direction(request.query.order),
        environment,
      });
      return sendPage(request, reply, page, privacyRequestView);
    },
    liftSuppression(request: Req<'liftSuppression'>, reply: Reply<'liftSuppression'>) {
      const { identifiers, reason, clientNames, liftedBy } = request.body;
      return answerCreate(deps, request, reply, (d) =>
        liftSuppression(d, {
          environment: request.params.environment,
          identifiers,
          reason,
          liftedBy: liftedBy ?? d.actor,
          ...(clientNames ? { clientNames } : {}),
        }),
      );
    },
    rotateSigningKey(request: Req<'rotateSigningKey'>, reply: Reply<'rotateSigningKey'>) {
      const retirePrevious = request.body.retirePrevious === true;
      return answerCreate(deps, request, reply, async (d) => {
        const r = await rotateSigningKey(d, retirePrevious ? { retirePrevious } : {});
        return { keyId: r.keyId, previousKeysRetireAt: iso(r.previousRetireAt) };
      });
    },
    async listAuditEvents(request: Req<'listAuditEvents'>, reply: Reply<'listAuditEvents'>) {
      const { since, target, order, ...rest } = request.query;
      const page = await readAuditTrail(deps, {
        ...rest,
        order: direction(order),
        ...(since !== undefined ? { since: Date.parse(since) } : {}),
        ...(target !== undefined ? { targetId: target } : {}),
      });
      return sendPage(request, reply, page, auditEventView);
    },
  };
}
