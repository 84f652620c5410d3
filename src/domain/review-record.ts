import { randomUUID } from 'node:crypto';
import type { Environment } from './environment.js';
import { IDENTIFIER_KINDS, IdentifierError, identifierHash, normalizeIdentifier } from './identifiers.js';
import type { ReviewAuthor, ReviewRecord } from './review.js';

/** A line that cannot be imported: the field at fault (dotted path) and why. */
export class ReviewInputError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * The fields of one line of a review import (NDJSON). The author block uses the Privacy API's
 * identifier names, so what a forget request names is exactly what an import stored.
 */
const REVIEW_FIELDS = ['id', 'clientName', 'rating', 'title', 'text', 'submittedAt', 'author'] as const;
const AUTHOR_FIELDS = ['name', ...IDENTIFIER_KINDS] as const;

/** Names other systems use for the same data, so the error can point at the right field. */
const ALIASES: Record<string, string> = {
  email: 'author.emailAddress',
  mail: 'author.emailAddress',
  phone: 'author.phoneNumber',
  telephone: 'author.phoneNumber',
  mobile: 'author.phoneNumber',
  authorname: 'author.name',
  instagram: 'author.instagramUsername',
  facebook: 'author.facebookUsername',
  twitter: 'author.twitterUsername',
  vimeo: 'author.vimeoUsername',
  youtube: 'author.youtubeChannelId',
  body: 'text',
  content: 'text',
  stars: 'rating',
  client: 'clientName',
};

const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

function suggestion(name: string): string | undefined {
  const key = squash(name);
  const known = [...REVIEW_FIELDS.map((f) => f as string), ...AUTHOR_FIELDS.map((f) => `author.${f}`)];
  return (
    known.find((f) => squash(f.replace(/^author\./, '')) === key) ??
    known.find((f) => squash(f) === key) ??
    ALIASES[key]
  );
}

/** What a field name may look like to be shown: anything else may be data put in the wrong place. */
const SHOWABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,40}$/;

function unknownField(prefix: string, name: string): ReviewInputError {
  if (!SHOWABLE_NAME.test(name)) {
    // e.g. {"alice@example.com": 1}: the report never repeats a line's content.
    return new ReviewInputError(`unknown field (its name is not shown)${prefix ? ` in ${prefix}` : ''}`);
  }
  const path = `${prefix ? `${prefix}.` : ''}${name}`;
  const hint = suggestion(name);
  return new ReviewInputError(`unknown field "${path}"${hint ? ` (did you mean "${hint}"?)` : ''}`, path);
}

/**
 * An import line must name only known fields: a field under another name (a typo, or another
 * system's export) would otherwise be dropped, and a forget request for that identifier would
 * later find nothing to erase.
 */
export function checkReviewFields(input: unknown): asserts input is Record<string, unknown> {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new ReviewInputError('expected a JSON object');
  for (const name of Object.keys(input)) {
    if (!(REVIEW_FIELDS as readonly string[]).includes(name)) throw unknownField('', name);
  }
  const author = (input as { author?: unknown }).author;
  if (author === undefined || author === null) return;
  if (typeof author !== 'object' || Array.isArray(author))
    throw new ReviewInputError('author must be an object', 'author');
  for (const name of Object.keys(author)) {
    if (!(AUTHOR_FIELDS as readonly string[]).includes(name)) throw unknownField('author', name);
  }
}

export const REVIEW_ID_RE = /^[A-Za-z0-9_.:-]{1,100}$/;

function optionalString(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) {
    throw new ReviewInputError(`${field} must be a string of at most ${max} characters`, field);
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
  checkReviewFields(input);
  const r = input;
  const id = r.id === undefined ? randomUUID() : r.id;
  if (typeof id !== 'string' || !REVIEW_ID_RE.test(id))
    throw new ReviewInputError('id must be 1-100 of [A-Za-z0-9_.:-]', 'id');
  let rating: number | null = null;
  if (r.rating !== undefined && r.rating !== null) {
    if (typeof r.rating !== 'number' || !Number.isInteger(r.rating) || r.rating < 1 || r.rating > 5) {
      throw new ReviewInputError('rating must be a whole number from 1 to 5', 'rating');
    }
    rating = r.rating;
  }
  let submittedAt = now;
  if (r.submittedAt !== undefined) {
    const t = typeof r.submittedAt === 'string' ? Date.parse(r.submittedAt) : Number.NaN;
    if (Number.isNaN(t))
      throw new ReviewInputError('submittedAt must be an ISO-8601 date-time', 'submittedAt');
    submittedAt = t;
  }
  const author = (r.author ?? {}) as Record<string, unknown>;
  const profile: ReviewAuthor = {};
  const name = optionalString(author.name, 'author.name', 200);
  if (name) profile.name = name;
  const identifiers: ReviewRecord['identifiers'][number][] = [];
  for (const kind of IDENTIFIER_KINDS) {
    const raw = author[kind];
    if (raw === undefined || raw === null) continue;
    if (typeof raw !== 'string')
      throw new ReviewInputError(`author.${kind} must be a string`, `author.${kind}`);
    let normalized: string;
    try {
      normalized = normalizeIdentifier(kind, raw);
    } catch (err) {
      if (err instanceof IdentifierError)
        throw new ReviewInputError(`author.${kind} ${err.message}`, `author.${kind}`);
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
