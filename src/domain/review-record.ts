import { randomUUID } from 'node:crypto';
import type { Environment } from './environment.js';
import {
  IDENTIFIER_KINDS,
  IdentifierError,
  type IdentifierKind,
  identifierHash,
  normalizeIdentifier,
} from './identifiers.js';
import type { ReviewAuthor, ReviewRecord } from './review.js';

/**
 * One line of a review import (NDJSON). The author block uses the Privacy API's identifier names,
 * so what a forget request names is exactly what an import stored.
 */
export interface ReviewInput {
  id?: string;
  clientName: string;
  rating?: number;
  title?: string;
  text?: string;
  submittedAt?: string;
  author?: Partial<Record<IdentifierKind | 'name', string>>;
}

export class ReviewInputError extends Error {}

export const REVIEW_ID_RE = /^[A-Za-z0-9_.:-]{1,100}$/;

function optionalString(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) {
    throw new ReviewInputError(`${field} must be a string of at most ${max} characters`);
  }
  return value;
}

/** Validates one parsed import line; returns the review and its identifier hashes. */
export function reviewRecordFromInput(
  input: unknown,
  environment: Environment,
  clientId: string,
  hashKey: string,
  now: number,
): ReviewRecord {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new ReviewInputError('expected a JSON object');
  const r = input as Record<string, unknown>;
  const id = r.id === undefined ? randomUUID() : r.id;
  if (typeof id !== 'string' || !REVIEW_ID_RE.test(id))
    throw new ReviewInputError('id must be 1-100 of [A-Za-z0-9_.:-]');
  let rating: number | null = null;
  if (r.rating !== undefined && r.rating !== null) {
    if (typeof r.rating !== 'number' || !Number.isInteger(r.rating) || r.rating < 1 || r.rating > 5) {
      throw new ReviewInputError('rating must be a whole number from 1 to 5');
    }
    rating = r.rating;
  }
  let submittedAt = now;
  if (r.submittedAt !== undefined) {
    const t = typeof r.submittedAt === 'string' ? Date.parse(r.submittedAt) : Number.NaN;
    if (Number.isNaN(t)) throw new ReviewInputError('submittedAt must be an ISO-8601 date-time');
    submittedAt = t;
  }
  const author = (r.author ?? {}) as Record<string, unknown>;
  if (typeof author !== 'object' || Array.isArray(author))
    throw new ReviewInputError('author must be an object');
  const profile: ReviewAuthor = {};
  const name = optionalString(author.name, 'author.name', 200);
  if (name) profile.name = name;
  const identifiers: ReviewRecord['identifiers'][number][] = [];
  for (const kind of IDENTIFIER_KINDS) {
    const raw = author[kind];
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== 'string') throw new ReviewInputError(`author.${kind} must be a string`);
    let normalized: string;
    try {
      normalized = normalizeIdentifier(kind, raw);
    } catch (err) {
      if (err instanceof IdentifierError) throw new ReviewInputError(`author.${kind} ${err.message}`);
      throw err;
    }
    profile[kind] = raw.trim();
    identifiers.push({ kind, hash: identifierHash(hashKey, kind, normalized) });
  }
  const review = {
    id,
    environment,
    clientId,
    rating,
    title: optionalString(r.title, 'title', 500),
    text: optionalString(r.text, 'text', 65_535),
    author: profile,
    submittedAt,
    createdAt: now,
  };
  return { review, identifiers };
}
