import type { FastifyReply, HookHandlerDoneFunction } from 'fastify';
import { findTokenPasskey, findTokenPasskeyHeld } from '../../services/auth/find-token-passkey.js';
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
    const held = findTokenPasskeyHeld(deps, input);
    if (held) {
      request.passkey = held.passkey;
      done();
      return;
    }
    findTokenPasskey(deps, input).then((passkey) => {
      request.passkey = passkey;
      done();
    }, done);
  };
}
