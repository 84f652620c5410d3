import { decodePageCursor, encodePageCursor, type PagePosition } from '../../domain/page-cursor.js';
import { AppError } from '../../errors.js';

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;

/** What a paged list asks: at most `limit` items after the position `cursor` names. */
export interface PageRequest {
  readonly cursor?: string | undefined;
  readonly limit?: number | undefined;
}

export interface Page<T> {
  readonly items: readonly T[];
  /** The cursor of the next page; null on the last one. */
  readonly nextCursor: string | null;
}

/**
 * One page of a list in (creation time, id) order: `read` fetches up to `limit` rows after a
 * position (or from the start); one row more than asked tells whether another page follows.
 * `cursorParameter` names the query parameter the cursor came in, for the error a bad one gets.
 */
export async function readPage<T>(
  request: PageRequest,
  read: (after: PagePosition | null, limit: number) => Promise<readonly T[]>,
  positionOf: (item: T) => PagePosition,
  cursorParameter = 'cursor',
): Promise<Page<T>> {
  const limit = Math.min(request.limit ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
  let after: PagePosition | null = null;
  if (request.cursor !== undefined) {
    after = decodePageCursor(request.cursor);
    if (after === null)
      throw new AppError('INVALID_QUERY_PARAMETER', {
        field: cursorParameter,
        detail: `${cursorParameter} is not one this server issued: take it from the \`next\` link of a page`,
        source: { parameter: cursorParameter },
      });
  }
  const rows = await read(after, limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodePageCursor(positionOf(last)) : null };
}
