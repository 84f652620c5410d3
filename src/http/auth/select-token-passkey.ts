import type { FastifyReply, HookHandlerDoneFunction } from 'fastify';
import { findTokenPasskey } from '../../services/auth/find-token-passkey.js';
import type { HttpDeps } from '../http-deps.js';
import type { RouteRequest } from '../route-request.js';
import { finishStep } from '../steps/finish-step.js';
import type * as S from './auth-schemas.js';
import { oauthClientOf } from './authenticate-oauth-client.js';

/**
 * docs/interface.md §5.5: picks the passkey a token call is charged to (`?passkey=` or the default),
 * within the request's turn of the event loop when the cache holds it.
 */
export function selectTokenPasskey(deps: HttpDeps) {
  return function selectTokenPasskey(
    request: RouteRequest<typeof S.IssueToken>,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    const input = { client: oauthClientOf(request), passkey: request.query.passkey };
    finishStep(findTokenPasskey(deps, input), (found) => (request.passkey = found), done);
  };
}
