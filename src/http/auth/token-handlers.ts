import type { FastifyReply, HookHandlerDoneFunction } from 'fastify';
import type { Static } from 'typebox';
import { checkTokenRequest, OFFLINE_ACCESS } from '../../domain/token-request.js';
import { type IssuedAccessToken, issueAccessToken } from '../../services/auth/issue-access-token.js';
import { revokeAccessToken } from '../../services/auth/revoke-access-token.js';
import { whenReady } from '../../services/maybe-promise.js';
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

type TokenAnswer = Static<typeof S.TokenResponse>;

const tokenResponse = (token: IssuedAccessToken): TokenAnswer => ({
  access_token: token.accessToken,
  token_type: 'Bearer',
  expires_at: token.expiresAt,
  expires_in: token.expiresIn,
  scope: 'offline_access',
  refresh_token: 'null',
});

/**
 * The token answer as JSON text, written without the route's schema serializer. To pick that one,
 * Fastify looks the answer's media type up on every send (the schema names one), and the
 * serializer then scans the 230-character token for characters to escape: together about 8,000
 * of the 236,000 instructions a token costs the server (bench/instructions.ts). Nothing here needs
 * escaping: a token is its prefix and base64url (domain/access-token.ts), the other strings are
 * constants, the times integers (anything else is refused, not written). The route's
 * schema still describes the answer (OpenAPI, types); a test holds this text to the JSON of the
 * answer and to the schema.
 */
export function tokenAnswerJson(answer: TokenAnswer): string {
  if (!Number.isSafeInteger(answer.expires_at) || !Number.isSafeInteger(answer.expires_in)) {
    throw new Error('a token answer gives its times as integers');
  }
  return `{"access_token":"${answer.access_token}","token_type":"Bearer","expires_at":${answer.expires_at},"expires_in":${answer.expires_in},"scope":"offline_access","refresh_token":"null"}`;
}

/**
 * The answer as text with a JSON media type, which Fastify sends as it is. Nothing is left on the
 * reply: an error met after this (in a later step) is still written in the OAuth error shape.
 */
function answerToken(reply: FastifyReply, token: IssuedAccessToken): string {
  reply.type('application/json; charset=utf-8');
  return tokenAnswerJson(tokenResponse(token));
}

export function tokenHandlers(deps: HttpDeps) {
  return {
    /** RFC 6749 §4.4.3 / §5.1, with the interface's `expires_at` (docs/interface.md §2.3) and literal `refresh_token`. */
    issueToken(request: RouteRequest<typeof S.IssueToken>, reply: RouteReply<typeof S.IssueToken>) {
      const input = { client: oauthClientOf(request), scope: OFFLINE_ACCESS };
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      // Signed within this turn of the event loop when the signing key is in memory.
      const token = issueAccessToken(deps, input);
      return whenReady(token, (t) => answerToken(reply, t));
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
