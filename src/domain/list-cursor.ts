import { hkdfSync } from 'node:crypto';
import { IDENTIFIER_KINDS, type IdentifierKind } from './identifiers.js';
import { type PagePosition, readPagePosition } from './page-cursor.js';
import { seal, unseal } from './seal.js';

/** An identifier filter as the store matches it: the kind and the keyed hash of the value. */
export interface IdentifierFilter {
  readonly kind: IdentifierKind;
  readonly hash: string;
}

/**
 * Page token of a list ordered by (submission time, id) descending: the position of the last item
 * shown (as a page cursor holds it: page-cursor.ts), and the identifier filter of the list as its
 * keyed hash. Page links may be logged or shared, so an identifier travels in them only inside the
 * cursor; and the cursor is sealed (seal.ts), since that hash is the one stored for the person's
 * requests and suppressions: readable, it would let any caller have the server hash any address,
 * and match it against a copy of the database. base64url so it travels in a query string untouched.
 */
export interface ListCursor {
  /** Null on a cursor that names the first page of a filtered list. */
  readonly position: PagePosition | null;
  readonly identifier: IdentifierFilter | null;
}

/**
 * The key one application's list cursors are sealed with: derived (HKDF, RFC 5869) from the
 * server's hash key, which a database copy does not hold when configured (IDENTIFIER_HASH_KEY),
 * and from the application, so a cursor opens for no other caller. Token signing keys would not
 * do: they are stored in the database, and rotate.
 */
export function listCursorKey(hashKey: string, applicationId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', hashKey, '', `rpa list cursor\u0000${applicationId}`, 32));
}

const HASH_RE = /^[A-Za-z0-9_-]{1,100}$/;

export function encodeListCursor(key: Buffer, cursor: ListCursor): string {
  const { position, identifier } = cursor;
  const parts: unknown[] = position ? [position.at, position.id] : [null, null];
  if (identifier) parts.push(identifier.kind, identifier.hash);
  return seal(key, JSON.stringify(parts)).toString('base64url');
}

/** Null for the first page of a filtered list, undefined for what is not a position. */
function readPosition(at: unknown, id: unknown): PagePosition | null | undefined {
  if (at === null && id === null) return null;
  return readPagePosition(at, id) ?? undefined;
}

function readIdentifier(kind: unknown, hash: unknown): IdentifierFilter | undefined {
  if (!(IDENTIFIER_KINDS as readonly unknown[]).includes(kind)) return undefined;
  if (typeof hash !== 'string' || !HASH_RE.test(hash)) return undefined;
  return { kind: kind as IdentifierKind, hash };
}

/** Returns null for anything that is not a cursor this server issued with this key. */
export function decodeListCursor(key: Buffer, cursor: string): ListCursor | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return null;
  const text = unseal(key, Buffer.from(cursor, 'base64url'));
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || (value.length !== 2 && value.length !== 4)) return null;
  const position = readPosition(value[0], value[1]);
  if (position === undefined) return null;
  if (value.length === 2) return position ? { position, identifier: null } : null;
  const identifier = readIdentifier(value[2], value[3]);
  return identifier ? { position, identifier } : null;
}
