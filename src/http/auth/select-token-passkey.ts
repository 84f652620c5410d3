import { findTokenPasskey } from '../../services/auth/find-token-passkey.js';
import type { HttpDeps } from '../http-deps.js';
import type { RouteRequest } from '../route-request.js';
import type * as S from './auth-schemas.js';
import { oauthClientOf } from './authenticate-oauth-client.js';

/** docs/interface.md §5.5: picks the passkey a token call is charged to (`?passkey=` or the default). */
export function selectTokenPasskey(deps: HttpDeps) {
  return async function selectTokenPasskey(request: RouteRequest<typeof S.IssueToken>): Promise<void> {
    const { passkey } = request.query;
    request.passkey = await findTokenPasskey(deps, { client: oauthClientOf(request), passkey });
  };
}
