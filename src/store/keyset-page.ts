import { type Expression, type SqlBool, sql } from 'kysely';
import type { PagePosition } from '../domain/page-cursor.js';

/** Which way a list runs in (at, id) order: oldest first, or newest first. */
export type PageOrder = 'asc' | 'desc';

/**
 * The rows after `position` in (at, id) order, ascending unless `order` says otherwise: the keyset
 * condition every paged list shares (domain/page-cursor.ts), the Privacy API's newest first. In descending order
 * "after" is "older", so a row written while a client pages lands before the first page and
 * neither shifts nor repeats the rows of the pages handed out. Column names come from the
 * repositories, never from callers.
 */
export function afterPosition(
  atColumn: string,
  idColumn: string,
  position: PagePosition,
  order: PageOrder = 'asc',
): Expression<SqlBool> {
  const at = sql.ref(atColumn);
  const id = sql.ref(idColumn);
  const past = sql.raw(order === 'asc' ? '>' : '<');
  return sql<SqlBool>`(${at} ${past} ${position.at} or (${at} = ${position.at} and ${id} ${past} ${position.id}))`;
}
