/**
 * Where a page of a list ends: the creation time and id of its last item. Lists are ordered by
 * both (oldest first, or newest first: store/keyset-page.ts), so an item created while a client
 * pages lands beyond or before every position already handed out: following `next` links neither
 * skips an item that existed when listing began nor repeats one. base64url, so it travels in a
 * query string untouched.
 */
export interface PagePosition {
  readonly at: number;
  readonly id: string;
}

/** Ids are UUIDs; printable ASCII keeps a forged cursor from carrying what a database refuses. */
const ID_RE = /^[\x21-\x7e]{1,100}$/;

export function encodePageCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id]), 'utf8').toString('base64url');
}

/** Null for anything that is not a cursor this server issued. */
export function decodePageCursor(cursor: string): PagePosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(value) || value.length !== 2) return null;
    return readPagePosition(value[0], value[1]);
  } catch {
    return null;
  }
}

/** The position a cursor's first two elements name, or null when they name none. */
export function readPagePosition(at: unknown, id: unknown): PagePosition | null {
  return Number.isSafeInteger(at) && typeof id === 'string' && ID_RE.test(id)
    ? { at: at as number, id }
    : null;
}
