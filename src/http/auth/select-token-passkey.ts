import type { FastifyRequest } from 'fastify';
import { findTokenPasskey } from '../../services/auth/find-token-passkey.js';
import type { HttpDeps } from '../http-deps.js';
import { oauthClientOf } from './authenticate-oauth-client.js';

/** Seed §5.5: picks the passkey a token call is charged to (`?passkey=` or the default). */
export function selectTokenPasskey(deps: HttpDeps) {
  return async function selectTokenPasskey(request: FastifyRequest): Promise<void> {
    const { passkey } = request.query as { passkey?: string };
    request.passkey = await findTokenPasskey(deps, { client: oauthClientOf(request), passkey });
  };
}
