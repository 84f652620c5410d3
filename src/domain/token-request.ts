import { AppError } from '../errors.js';

export const CLIENT_CREDENTIALS_GRANT = 'client_credentials';

/** The only scope the service knows (docs/interface.md §2.3); it is what every token carries. */
export const OFFLINE_ACCESS = 'offline_access';

/**
 * RFC 6749 §4.4.2: only the client credentials grant is served. §3.3: `scope` is a
 * space-delimited list; it may be omitted or name `offline_access`, anything else is refused
 * rather than silently narrowed, so a client never believes it holds a scope it does not.
 * Returns the scope the token is granted.
 */
export function checkTokenRequest(input: { grantType: string; scope?: string | undefined }): string {
  if (input.grantType !== CLIENT_CREDENTIALS_GRANT) {
    throw new AppError('UNSUPPORTED_GRANT_TYPE', {
      field: 'grant_type',
      detail: `grant_type must be ${CLIENT_CREDENTIALS_GRANT}`,
    });
  }
  const requested = (input.scope ?? '').split(' ').filter(Boolean);
  if (requested.some((s) => s !== OFFLINE_ACCESS)) {
    throw new AppError('INVALID_SCOPE', {
      field: 'scope',
      detail: `the only scope available is ${OFFLINE_ACCESS}`,
    });
  }
  return OFFLINE_ACCESS;
}
