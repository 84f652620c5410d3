import { AppError, DEPENDENCY_RETRY_AFTER_SECONDS } from '../../errors.js';
import { isDatabaseUnavailable } from '../../store/driver-errors.js';

/**
 * The answer to a request the database could not serve because it is unreachable, shutting down,
 * recovering or out of connections, or because no connection of this process came free in time:
 * 503 with Retry-After (RFC 9110 §15.6.4, §10.2.3), which says the refusal is the server's and
 * passes. Null for every other error, which stays a 500.
 */
export function databaseUnavailable(err: unknown): AppError | null {
  if (!isDatabaseUnavailable(err)) return null;
  return new AppError('SERVICE_UNAVAILABLE', {
    detail: 'the database cannot serve requests right now',
    headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
    cause: err,
  });
}
