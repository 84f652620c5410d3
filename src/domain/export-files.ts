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

/**
 * CSV injection (OWASP, "CSV Injection"): a spreadsheet runs a cell as a formula when it starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return, or their full-width forms, even behind
 * white space or characters nobody sees. OWASP's remedy: a leading `'`, which spreadsheets read as
 * text, and the cell in double quotes (`QUOTED_CELL`).
 *
 * A spreadsheet also starts a cell after each `,` or `;` inside a value (the list separator it
 * reads the file with is its locale's: `;` in German or French) and after each line break: one
 * that splits at `;` and honours a double quote only at the start of a cell reads
 * `…,"Thanks;=HYPERLINK(…)"` as a cell `=HYPERLINK(…)`. So the `'` goes wherever a cell may start:
 * at the start of the value and after each of those separators, when what follows, past white
 * space, controls, format characters and double quotes, is a formula character. A value that has
 * a `'` of its own there gets a second one, so the rule can be undone: remove the `'` at the
 * start and after each separator (docs/privacy.md, Exports). The JSON file keeps the value as it is.
 */
const FORMULA = '=+\\-@\\t\\r\\uFF1D\\uFF0B\\uFF0D\\uFF20';
const IS_FORMULA = new RegExp(`^[${FORMULA}]$`, 'u');
/** Where a spreadsheet may start a cell inside a value; CRLF is one line break. */
const CELL_BREAK = /(\r\n|[,;\r\n])/;
/** The first character a spreadsheet does not skip (the tab, a control, is a formula character). */
const READ = /[^\p{White_Space}\p{Cc}\p{Cf}"]|\t/u;
/** Nothing to mark without one of these. */
const MAY_NEED_MARK = new RegExp(`['${FORMULA}]`);

/** Cells written in double quotes: those holding a separator, a line break, a `'` or a formula character. */
export const QUOTED_CELL = new RegExp(`[,;\\n'${FORMULA}]`);

export function neutraliseCell(value: string): string {
  if (!MAY_NEED_MARK.test(value)) return value;
  const parts = value.split(CELL_BREAK);
  // Read from the end, so that each place learns what comes first after it in one pass.
  let next: string | undefined;
  for (let k = parts.length - 1; k >= 0; k--) {
    const part = parts[k] as string;
    if (k % 2 === 1) {
      // A line feed is skipped like white space; CR and CRLF start with a formula character.
      if (part !== '\n') next = part[0];
      continue;
    }
    next = READ.exec(part)?.[0] ?? next;
    if (part.startsWith("'") || (next !== undefined && IS_FORMULA.test(next))) parts[k] = `'${part}`;
  }
  return parts.join('');
}
