import type { FastifyReply, HookHandlerDoneFunction } from 'fastify';
import { checkTokenRequest, OFFLINE_ACCESS } from '../../domain/token-request.js';
import {
  type IssuedAccessToken,
  issueAccessToken,
  issueAccessTokenHeld,
} from '../../services/auth/issue-access-token.js';
import { revokeAccessToken } from '../../services/auth/revoke-access-token.js';
import type { HttpDeps } from '../http-deps.js';
import type { RouteReply, RouteRequest } from '../route-request.js';
import type * as S from './auth-schemas.js';
import { oauthClientOf } from './authenticate-oauth-client.js';

/**
 * RFC 6749 §4.4.2: grant type and scope are checked before the client is authenticated, so a
 * malformed request costs no database work and no failed-login count.
 */
export function checkGrant(
  request: RouteRequest<typeof S.IssueToken>,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const { body } = request;
  checkTokenRequest({ grantType: body.grant_type, scope: body.scope });
  done();
}

const tokenResponse = (token: IssuedAccessToken) => ({
  access_token: token.accessToken,
  token_type: 'Bearer' as const,
  expires_at: token.expiresAt,
  expires_in: token.expiresIn,
  scope: 'offline_access' as const,
  refresh_token: 'null' as const,
});

export function tokenHandlers(deps: HttpDeps) {
  return {
    /** RFC 6749 §4.4.3 / §5.1, with the interface's `expires_at` (docs/interface.md §2.3) and literal `refresh_token`. */
    issueToken(request: RouteRequest<typeof S.IssueToken>, reply: RouteReply<typeof S.IssueToken>) {
      const input = { client: oauthClientOf(request), scope: OFFLINE_ACCESS };
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      // Signed within this turn of the event loop when the signing key is in memory.
      const held = issueAccessTokenHeld(deps, input);
      return held ? tokenResponse(held) : issueAccessToken(deps, input).then(tokenResponse);
    },

    /** RFC 7009 §2.2: 200 whether or not there was anything to revoke. */
    async revokeToken(request: RouteRequest<typeof S.RevokeToken>, reply: RouteReply<typeof S.RevokeToken>) {
      const revoked = await revokeAccessToken(deps, {
        client: oauthClientOf(request),
        token: request.body.token,
      });
      if (revoked) deps.tokens.forget(revoked);
      return reply.code(200).header('cache-control', 'no-store').send({});
    },
  };
}
