import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { installErrorHandling } from '../errors/install-error-handling.js';
import { sendOAuthError } from '../errors/render.js';
import type { HttpDeps } from '../http-deps.js';
import { chargePasskey } from '../steps/charge-passkey.js';
import * as S from './auth-schemas.js';
import { authenticateOAuthClient } from './authenticate-oauth-client.js';
import { registerFormBodyParser, requireFormEncoded } from './form-body.js';
import { selectTokenPasskey } from './select-token-passkey.js';
import { checkGrant, tokenHandlers } from './token-handlers.js';

const FORM = ['application/x-www-form-urlencoded'];
// HTTP Basic, or nothing in headers: client_secret_post carries the credentials in the body.
const clientAuth: Array<Record<string, string[]>> = [{ clientSecretBasic: [] }, {}];

/**
 * Token service under /auth/v1: RFC 6749 §4.4 client credentials and RFC 7009 revocation, every
 * error in the RFC 6749 §5.2 shape. Metadata (RFC 8414) lives at the root: metadata-routes.ts.
 */
export function authRoutes(deps: HttpDeps): FastifyPluginAsync {
  return async (plugin) => {
    const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
    installErrorHandling(app, sendOAuthError);
    registerFormBodyParser(app);
    app.decorateRequest('oauthClient', null);
    const h = tokenHandlers(deps);

    app.post(
      '/oauth2/token',
      {
        schema: {
          operationId: 'issueAccessToken',
          summary: 'Get an access token (client credentials)',
          tags: ['Token service'],
          consumes: FORM,
          security: clientAuth,
          ...S.IssueToken,
          response: { 200: S.tokenIssued, ...S.tokenErrors },
        },
        onRequest: [requireFormEncoded],
        // Authenticated before charging, so failed logins never consume a passkey's allowance.
        preHandler: [
          checkGrant,
          authenticateOAuthClient(deps),
          selectTokenPasskey(deps),
          chargePasskey(deps, 'auth'),
        ],
      },
      h.issueToken,
    );

    app.post(
      '/oauth2/revoke',
      {
        schema: {
          operationId: 'revokeAccessToken',
          summary: 'Revoke an access token (RFC 7009)',
          tags: ['Token service'],
          consumes: FORM,
          security: clientAuth,
          ...S.RevokeToken,
          response: { 200: S.Revoked, ...S.revocationErrors },
        },
        onRequest: [requireFormEncoded],
        preHandler: [authenticateOAuthClient(deps)],
      },
      h.revokeToken,
    );
  };
}
