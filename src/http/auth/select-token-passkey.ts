import type { FastifyReply, HookHandlerDoneFunction } from 'fastify';
import { findTokenPasskey } from '../../services/auth/find-token-passkey.js';
import { isPromise } from '../../services/maybe-promise.js';
import type { HttpDeps } from '../http-deps.js';
import type { RouteRequest } from '../route-request.js';
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
    const passkey = findTokenPasskey(deps, input);
    if (!isPromise(passkey)) {
      request.passkey = passkey;
      done();
      return;
    }
    passkey.then((found) => {
      request.passkey = found;
      done();
    }, done);
  };
}
