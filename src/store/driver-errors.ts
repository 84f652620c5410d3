/**
 * Translates driver-specific failures into facts the services can act on, so nothing above the
 * store needs to know SQLSTATE codes or SQLite result codes.
 */

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

/** Lock contention that a retry resolves: PostgreSQL serialization/deadlock, SQLite busy. */
export function isTransientConflict(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as DriverError).code;
  return code === '40001' || code === '40P01' || code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
}

/**
 * An error raised by the database or its driver (a PostgreSQL error answer, any SQLite result
 * code), as opposed to the service's own: what the database error metric counts.
 */
export function isDatabaseError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, name, severity } = err as DriverError & { name?: unknown; severity?: unknown };
  if (name === 'SqliteError' || (typeof code === 'string' && code.startsWith('SQLITE_'))) return true;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}
