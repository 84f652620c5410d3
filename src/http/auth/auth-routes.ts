import type { FastifyPluginAsync } from 'fastify';
import { installErrorHandling } from '../errors/install-error-handling.js';
import { sendOAuthError } from '../errors/render.js';
import type { HttpDeps } from '../http-deps.js';
import { type RouteTableApi, registerRouteTable, route } from '../route-table.js';
import { chargePasskey } from '../steps/charge-passkey.js';
import { TOKEN_OPERATIONS as O, OAUTH_ERROR_ANSWERS } from './auth-operations.js';
import { authenticateOAuthClient } from './authenticate-oauth-client.js';
import { registerFormBodyParser, requireFormEncoded } from './form-body.js';
import { selectTokenPasskey } from './select-token-passkey.js';
import { checkGrant, tokenHandlers } from './token-handlers.js';

/** Every route takes a form body, and authenticates its client by HTTP Basic or in that body. */
const TOKEN_SERVICE: RouteTableApi = {
  steps: () => ({ onRequest: [requireFormEncoded] }),
  errorAnswers: OAUTH_ERROR_ANSWERS,
  bodyTypes: ['application/x-www-form-urlencoded'],
  // HTTP Basic, or nothing in headers: client_secret_post carries the credentials in the body.
  security: () => [{ clientSecretBasic: [] }, {} as Record<string, string[]>],
};

/**
 * Token service under /auth/v1: RFC 6749 §4.4 client credentials and RFC 7009 revocation, every
 * error in the RFC 6749 §5.2 shape. Not set up as the JSON APIs are (api-routes-setup.ts): form
 * bodies, and its own Cache-Control on the answers that need it. Metadata (RFC 8414) lives at the
 * root: metadata-routes.ts.
 */
export function authRoutes(deps: HttpDeps): FastifyPluginAsync {
  return async (app) => {
    installErrorHandling(app, sendOAuthError);
    registerFormBodyParser(app);
    app.decorateRequest('oauthClient', null);
    const h = tokenHandlers(deps);
    // The client is authenticated before charging, so failed logins never consume a passkey's allowance.
    const issue = {
      steps: {
        preHandler: [
          checkGrant,
          authenticateOAuthClient(deps),
          selectTokenPasskey(deps),
          chargePasskey(deps, 'auth'),
        ],
      },
    };
    const revoke = { steps: { preHandler: [authenticateOAuthClient(deps)] } };
    // biome-ignore format: a route table, one route per line
    registerRouteTable(app, TOKEN_SERVICE, [
      route('POST', '/oauth2/token',  O.issueAccessToken,  issue,  h.issueToken),
      route('POST', '/oauth2/revoke', O.revokeAccessToken, revoke, h.revokeToken),
    ]);
  };
}
