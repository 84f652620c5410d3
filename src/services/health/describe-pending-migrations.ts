/**
 * What an instance that cannot serve its database's schema yet says of it, in /readyz and in the
 * start's log line: how many migrations are missing (or that there are no tables at all, which is
 * a wrong DATABASE_URL more often than a new installation) and the command that applies them.
 */
export function describePendingMigrations(pending: readonly string[], noTables = false): string {
  if (noTables) return 'the database has no tables yet; run `rpa migrate`';
  const count =
    pending.length === 1 ? '1 database migration is' : `${pending.length} database migrations are`;
  return `${count} pending; run \`rpa migrate\``;
}
