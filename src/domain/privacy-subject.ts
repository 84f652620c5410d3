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

/**
 * The pending rule's keys (docs/design.md, Privacy API: "same end user" = same identifier type and normalized value
 * within a shared client): one per named client and identifier. Always in one global order, so
 * concurrent requests inserting overlapping keys wait on each other instead of deadlocking.
 */
export function pendingKeys(
  clientIds: readonly string[],
  subject: readonly SubjectIdentifier[],
): { clientId: string; kind: IdentifierKind; hash: string }[] {
  return [...clientIds]
    .sort()
    .flatMap((clientId) =>
      [...subject]
        .sort((a, b) => a.kind.localeCompare(b.kind))
        .map((s) => ({ clientId, kind: s.kind, hash: s.hash })),
    );
}
