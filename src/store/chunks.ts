/**
 * Consecutive slices of at most `size` items. Statements over many rows are split so their bound
 * values stay below SQLite's 32766 and PostgreSQL's 65535 per statement.
 */
export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
