/**
 * Whether a failed call says the database could not be reached or went away while serving it,
 * rather than refusing the call itself: the caller waits for it to come back and tries again
 * (docs/design.md, Privacy API: requests are carried out durably). Codes: PostgreSQL class 08 (connection exception) and
 * 57P01–57P03 (shutdown, crash, not accepting connections yet), the sockets' own errors, node-pg's
 * messages for a connection that ended or a pool that found none in time, and SQLite's I/O errors
 * and a database file it cannot open.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code)) return true;
    if (SOCKET_CODES.has(code)) return true;
    if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN') return true;
  }
  return typeof message === 'string' && DRIVER_MESSAGES.some((m) => message.includes(m));
}

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const DRIVER_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error',
  'timeout exceeded when trying to connect',
  'Connection ended',
];
