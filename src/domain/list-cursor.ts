/**
 * Opaque page token of a list ordered by (submittedAt, id) descending: the position of the last
 * item shown. base64url so it travels in a query string untouched.
 */
export interface ListPosition {
  readonly submittedAt: number;
  readonly id: string;
}

export function encodeListCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.submittedAt, position.id]), 'utf8').toString('base64url');
}

/** Request ids are UUIDs; printable ASCII keeps a forged cursor from carrying what a database refuses. */
const ID_RE = /^[\x21-\x7e]{1,100}$/;

/** Returns null for anything that is not a cursor this server issued. */
export function decodeListCursor(cursor: string): ListPosition | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      typeof value[1] === 'string' &&
      ID_RE.test(value[1])
    ) {
      return { submittedAt: value[0] as number, id: value[1] };
    }
  } catch {
    // fall through: not JSON
  }
  return null;
}
