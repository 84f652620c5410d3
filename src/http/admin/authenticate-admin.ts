import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ADMIN_SCOPES, type AdminScope } from '../../domain/admin-scope.js';
import { AppError } from '../../errors.js';
import { authenticateAdminToken } from '../../services/admin/authenticate-admin-token.js';
import type { AuthFailureThrottle } from '../../services/auth/create-auth-failure-throttle.js';
import type { ServiceDeps } from '../../services/deps.js';
import { BEARER_RE } from '../steps/authenticate-bearer.js';
import type { AdminCaller } from './admin-caller.js';

/**
 * How the admin listener knows its callers: by admin token (`rpa serve` with ADMIN_PORT), or as
 * the operator of an `rpa` command that holds the database credentials already and calls the
 * API inside its own process, never over a network.
 */
export type AdminAccess = { readonly throttle: AuthFailureThrottle } | { readonly operator: string };

const REALM = 'Bearer realm="admin"';

/**
 * RFC 6750: the admin token in `Authorization: Bearer`, with the scope the route needs. A missing
 * header is 401 with a bare challenge, an unknown, revoked or expired token 401 invalid_token, a
 * token without the scope 403 insufficient_scope naming it (§3.1). Failed attempts are counted as
 * the token endpoint's are (create-auth-failure-throttle.ts), apart from them: per presented token
 * from the caller's address, and per address, so guessing ends in 429 while neither listener's
 * failures refuse the other's callers, nor one stale token the operators sharing its address.
 */
export function authenticateAdmin(deps: ServiceDeps, access: AdminAccess, scope: AdminScope) {
  return async function authenticateAdmin(request: FastifyRequest): Promise<void> {
    if ('operator' in access) {
      request.adminCaller = { actor: access.operator, scopes: ADMIN_SCOPES, answerSecret: '' };
      return;
    }
    const header = request.headers.authorization;
    const value = typeof header === 'string' ? BEARER_RE.exec(header)?.[1] : undefined;
    if (value === undefined)
      throw new AppError('UNAUTHORIZED', {
        headers: { 'www-authenticate': REALM },
        ...(header ? { detail: 'The Authorization header must be "Bearer <admin token>"' } : {}),
      });
    const attempt = access.throttle.attempt('admin', value, request.ip);
    let caller: AdminCaller;
    try {
      const token = await authenticateAdminToken(deps, { value, scope });
      caller = {
        actor: `admin-token:${token.id}`,
        scopes: token.scopes,
        // Not the stored digest (a plain SHA-256 of the value): an HMAC keyed with the value.
        answerSecret: createHmac('sha256', value).update('rpa idempotent answers').digest('base64url'),
      };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'INVALID_TOKEN') {
        await attempt.failed();
        throw new AppError('INVALID_TOKEN', {
          detail: 'The admin token is unknown, revoked or expired',
          headers: { 'www-authenticate': `${REALM}, error="invalid_token"` },
        });
      }
      await attempt.succeeded();
      throw new AppError(err.code, {
        ...(err.detail ? { detail: err.detail } : {}),
        headers: { 'www-authenticate': `${REALM}, error="insufficient_scope", scope="${scope}"` },
      });
    }
    await attempt.succeeded();
    request.adminCaller = caller;
  };
}
