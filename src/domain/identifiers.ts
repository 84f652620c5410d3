import { createHmac } from 'node:crypto';

/**
 * End-user identifiers of the Privacy API (docs/design.md, Privacy API) and how each is normalized, so that
 * "the same end user" means the same type and normalized value.
 */
export const IDENTIFIER_KINDS = [
  'authorId',
  'emailAddress',
  'phoneNumber',
  'instagramUsername',
  'facebookUsername',
  'twitterUsername',
  'youtubeChannelId',
  'youtubeUsername',
  'vimeoUsername',
] as const;

export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];
export type Identifiers = Partial<Record<IdentifierKind, string>>;

export class IdentifierError extends Error {
  constructor(
    readonly kind: IdentifierKind,
    message: string,
  ) {
    super(message);
  }
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HANDLE_RE = /^[\p{L}\p{N}._-]+$/u;

function normalizeHandle(kind: IdentifierKind, raw: string): string {
  const v = raw.trim().replace(/^@/, '').toLowerCase();
  if (!v || v.length > 100 || !HANDLE_RE.test(v)) throw new IdentifierError(kind, 'is not a valid username');
  return v;
}

/** Returns the canonical form of an identifier, or throws IdentifierError. */
export function normalizeIdentifier(kind: IdentifierKind, raw: string): string {
  switch (kind) {
    case 'authorId': {
      // Client-controlled and case-sensitive (docs/interface.md §2.2): only surrounding space is insignificant.
      const v = raw.trim();
      if (!v || v.length > 255) throw new IdentifierError(kind, 'must be 1 to 255 characters');
      return v;
    }
    case 'emailAddress': {
      const v = raw.trim().toLowerCase();
      if (v.length > 254 || !EMAIL_RE.test(v))
        throw new IdentifierError(kind, 'is not a valid email address');
      return v;
    }
    case 'phoneNumber': {
      const trimmed = raw.trim();
      if (!/^\+?[\d\s().-]+$/.test(trimmed)) throw new IdentifierError(kind, 'is not a valid phone number');
      const digits = trimmed.replace(/^00/, '+').replace(/[^\d+]/g, '');
      const bare = digits.replace(/^\+/, '');
      if (bare.length < 6 || bare.length > 15) throw new IdentifierError(kind, 'must have 6 to 15 digits');
      // E.164-like: a leading + is kept only when given; "+44 20 7946 0000" equals "+442079460000".
      return digits.startsWith('+') ? `+${bare}` : bare;
    }
    case 'youtubeChannelId': {
      const v = raw.trim();
      if (!v || v.length > 100 || !/^[A-Za-z0-9_-]+$/.test(v)) {
        throw new IdentifierError(kind, 'is not a valid channel id');
      }
      return v;
    }
    default:
      return normalizeHandle(kind, raw);
  }
}

/** Keyed hash of a normalized identifier: equal people meet in the index, the value itself is not kept. */
export function identifierHash(key: string, kind: IdentifierKind, normalized: string): string {
  return createHmac('sha256', key).update(`${kind}\u0000${normalized}`, 'utf8').digest('base64url');
}

/** A display form that confirms which identifier was meant without revealing it. */
export function maskIdentifier(kind: IdentifierKind, normalized: string): string {
  if (kind === 'emailAddress') {
    const [local = '', domain = ''] = normalized.split('@');
    return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***`;
  }
  if (kind === 'phoneNumber') return `***${normalized.slice(-2)}`;
  if (normalized.length <= 2) return '***';
  return `${normalized.slice(0, 1)}***${normalized.slice(-1)}`;
}
