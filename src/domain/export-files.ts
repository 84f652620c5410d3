import type { ExportedReview } from './exported-review.js';
import { IDENTIFIER_KINDS } from './identifiers.js';

/**
 * The files of one client instance's folder in an access export archive (docs/privacy.md,
 * Exports), each a list of flat records whose keys are its columns: the JSON file holds the
 * records, the CSV file the same records under a header row of those keys. Every record has every
 * key (null when there is no value), so both say the same.
 */
export const EXPORT_FILES = {
  reviews: ['id', 'rating', 'title', 'text', 'submittedAt'],
  responses: [
    'reviewId',
    'id',
    'department',
    'response',
    'responseBy',
    'responseSource',
    'created',
    'updated',
  ],
  profile: ['reviewId', 'name', ...IDENTIFIER_KINDS],
} as const;

export type ExportFile = keyof typeof EXPORT_FILES;

function pick(keys: readonly string[], source: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, source[k] ?? null]));
}

/** The records one review adds to `file`: itself, each response to it, its author's profile. */
export function recordsOf(file: ExportFile, review: ExportedReview): Record<string, unknown>[] {
  const keys = EXPORT_FILES[file];
  if (file === 'reviews') return [pick(keys, review)];
  if (file === 'responses')
    return review.clientResponses.map((r) => pick(keys, { ...r, reviewId: review.id }));
  return [pick(keys, { ...review.author, reviewId: review.id })];
}

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * CSV injection (OWASP): a spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or
 * a carriage return as a formula. Such a cell is written with a leading `'`, which spreadsheets
 * show as text; the JSON file keeps the value as it is.
 */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}
