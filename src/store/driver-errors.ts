/**
 * Translates driver-specific failures into facts the services can act on, so nothing above the
 * store needs to know SQLSTATE codes or SQLite result codes.
 */

import { parseDatabaseUrl } from './database.js';
import { CLIENT_DEADLINE_MESSAGE } from './statement-deadline.js';

interface DriverError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

/** PostgreSQL 23505 unique_violation; SQLite SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. */
export function isUniqueViolation(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as DriverError).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * PostgreSQL 23503 foreign_key_violation; SQLite SQLITE_CONSTRAINT_FOREIGNKEY (foreign_keys is on:
 * sqlite-store.ts): a row was written that refers to one that is not there, or no longer.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as DriverError).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Lock contention that a retry resolves: PostgreSQL serialization/deadlock, SQLite busy. */
export function isTransientConflict(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as DriverError).code;
  return code === '40001' || code === '40P01' || code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
}

/**
 * An error raised by the database or its driver (a PostgreSQL error answer, any SQLite result
 * code, a lost or unobtainable connection), as opposed to the service's own: what the database
 * error metric counts.
 */
export function isDatabaseError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, name, severity } = err as DriverError & { name?: unknown; severity?: unknown };
  if (name === 'SqliteError' || (typeof code === 'string' && code.startsWith('SQLITE_'))) return true;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string') return true;
  return isDatabaseUnavailable(err);
}

/** Node's codes for a socket that could not connect, or lost its peer. */
const SOCKET_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // A name server that did not answer; ENOTFOUND, a name that does not exist, is a configuration error.
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that cannot serve this connection now (PostgreSQL, Appendix A): 57P01
 * admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting, in recovery, a
 * failover under way), 53300 too_many_connections, 53100 disk_full, 25006 read_only_sql_transaction
 * (a standby not yet promoted, during a failover), 57014 query_canceled (the statement ran past
 * its statement_timeout: a server too slow or a lock held too long, see statement-deadline.ts);
 * class 08 (connection exception) is matched as a class.
 */
const SERVER_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '53100', '25006', '57014']);

/**
 * What pg (lib/client.js) and pg-pool (index.js) say when a connection was lost, could not be made
 * in time (connectionTimeoutMillis), none of the pool's came free in time, or a statement had no
 * answer by the client's deadline (query_timeout); they carry no code.
 */
const DRIVER_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Client has encountered a connection error and is not queryable',
  CLIENT_DEADLINE_MESSAGE,
]);

/**
 * The database cannot serve right now, whatever the statement: it is unreachable, shutting down,
 * recovering, out of connections, its files cannot be written (SQLite), or this process waited
 * too long for a connection of its own. A retry
 * later may succeed, so callers answer 503 rather than 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as DriverError;
  if (typeof code === 'string') {
    if (SOCKET_FAILURES.has(code) || SERVER_UNAVAILABLE.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    // The file system under SQLite failed (a full or detached volume): the data is not gone.
    if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_FULL') return true;
  }
  return typeof message === 'string' && DRIVER_MESSAGES.has(message);
}

/**
 * Why a database could not be opened, in words safe to print anywhere: the host and port of a
 * PostgreSQL URL (never its user or password) or a SQLite file's path, and the driver's reason.
 */
export function describeOpenFailure(url: string, err: unknown): string {
  const { dialect, location } = parseDatabaseUrl(url);
  if (dialect === 'sqlite') return `cannot open ${location} (${openFailureReason(err)})`;
  return cannotConnect(location, '5432', openFailureReason(err));
}

/**
 * `cannot connect to host:port (reason)` for the server a URL names (PostgreSQL, Redis): its host
 * and port only, never the user or password the URL may carry.
 */
export function cannotConnect(url: string, defaultPort: string, reason?: string): string {
  const { hostname, port } = new URL(url);
  return `cannot connect to ${hostname || 'localhost'}:${port || defaultPort}${reason ? ` (${reason})` : ''}`;
}

/** Node's code for a system call that failed (ECONNREFUSED, ENOTFOUND, ENOTDIR), else the driver's words. */
function openFailureReason(err: unknown): string {
  const { code, message } = (err ?? {}) as DriverError;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  if (typeof message === 'string' && message !== '') return message.split('\n')[0] as string;
  return String(err);
}
