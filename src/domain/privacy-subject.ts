import { AppError } from '../errors.js';
import {
  IDENTIFIER_KINDS,
  IdentifierError,
  type IdentifierKind,
  type Identifiers,
  identifierHash,
  maskIdentifier,
  normalizeIdentifier,
} from './identifiers.js';

/** One identifier of a privacy request's subject, as stored: never the value itself. */
export interface SubjectIdentifier {
  readonly kind: IdentifierKind;
  /** Keyed hash of the normalized value: what erasure and the pending rule match on. */
  readonly hash: string;
  /** Display form, e.g. "a***@e***". */
  readonly masked: string;
}

/**
 * Normalizes and hashes the identifiers named in a request. At least one is required (docs/design.md, Privacy API);
 * an invalid one is a 400 naming the property, never echoing the value.
 */
export function privacySubject(key: string, identifiers: Identifiers): SubjectIdentifier[] {
  const subject: SubjectIdentifier[] = [];
  for (const kind of IDENTIFIER_KINDS) {
    const raw = identifiers[kind];
    if (raw === undefined) continue;
    let normalized: string;
    try {
      normalized = normalizeIdentifier(kind, raw);
    } catch (err) {
      if (!(err instanceof IdentifierError)) throw err;
      throw new AppError('INVALID_PROPERTY_VALUE', {
        field: kind,
        detail: `${kind} ${err.message}`,
        source: { pointer: `/${kind}` },
      });
    }
    subject.push({
      kind,
      hash: identifierHash(key, kind, normalized),
      masked: maskIdentifier(kind, normalized),
    });
  }
  if (subject.length === 0) {
    throw new AppError('MISSING_PROPERTY', {
      field: 'identifiers',
      detail: `at least one identifier is required: ${IDENTIFIER_KINDS.join(', ')}`,
      source: { pointer: '/' },
    });
  }
  return subject;
}

/** One identifier of the subject in one client instance. */
export interface SubjectKey {
  readonly clientId: string;
  readonly kind: string;
  readonly hash: string;
}

/**
 * The subject's keys (docs/design.md, Privacy API, "Same end user"): each named identifier in each
 * named client, plus the identifiers linked to them there through stored reviews. They are the
 * pending rule's unique keys and the scope the request erases or exports. Always in one global
 * order, so concurrent requests inserting overlapping keys wait on each other instead of
 * deadlocking.
 */
export function pendingKeys(
  clientIds: readonly string[],
  subject: readonly SubjectIdentifier[],
  linked: readonly SubjectKey[] = [],
): SubjectKey[] {
  const keys = new Map<string, SubjectKey>();
  const add = (k: SubjectKey) => keys.set(`${k.clientId}\u0000${k.kind}\u0000${k.hash}`, k);
  for (const clientId of clientIds) for (const s of subject) add({ clientId, kind: s.kind, hash: s.hash });
  const named = new Set(clientIds);
  for (const k of linked) if (named.has(k.clientId)) add(k);
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...keys.values()].sort(
    (a, b) => compare(a.clientId, b.clientId) || compare(a.kind, b.kind) || compare(a.hash, b.hash),
  );
}
