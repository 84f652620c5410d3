import type { Environment } from '../../domain/environment.js';
import type { ReviewRecord } from '../../domain/review.js';
import { checkReviewFields, ReviewInputError, reviewRecordFromInput } from '../../domain/review-record.js';
import { isUniqueViolation } from '../../store/driver-errors.js';
import { lockClientsForImport } from '../../store/repositories/client-erasure-locks.js';
import { findClientsByNames } from '../../store/repositories/clients.js';
import { findSuppressedHashes } from '../../store/repositories/privacy-suppressions.js';
import { findExistingReviewIds, insertReviews } from '../../store/repositories/reviews.js';
import { inTransaction } from '../../store/transaction.js';
import type { ServiceDeps } from '../deps.js';

export interface ImportProgress {
  readonly lines: number;
  readonly imported: number;
  readonly skippedForgotten: number;
  readonly rejected: number;
}

interface ImportRejection {
  readonly line: number;
  /** Dotted path of the field at fault, when one is. */
  readonly field?: string;
  /** Why, never the line's content. */
  readonly message: string;
}

export interface ImportResult extends ImportProgress {
  /** Validated only: `imported` counts the lines that would have been imported. */
  readonly dryRun: boolean;
  /** First rejections, in line order. */
  readonly errors: readonly ImportRejection[];
  /** First lines skipped because their author was forgotten in that client. */
  readonly skipped: readonly { readonly line: number; readonly clientName: string }[];
}

export interface ImportReviewsInput {
  /** NDJSON lines, one review each. */
  readonly lines: AsyncIterable<string> | Iterable<string>;
  readonly environment: Environment;
  /** Validate every line, check ids and suppressions, write nothing. */
  readonly dryRun?: boolean;
  readonly onProgress?: (p: ImportProgress) => void;
}

interface Item {
  readonly line: number;
  readonly clientName: string;
  readonly record: ReviewRecord;
}

const BATCH = 500;
const MAX_REPORTED = 100;
const DUPLICATE_ID = 'a review with this id already exists';

/** What an import has counted so far, and the first rejections and skipped lines to report. */
class ImportTally {
  lines = 0;
  imported = 0;
  skippedForgotten = 0;
  rejected = 0;
  readonly errors: ImportRejection[] = [];
  readonly skipped: { line: number; clientName: string }[] = [];
  /** Dry run only: ids seen earlier in the file, which a real import would reject as duplicates. */
  readonly seenIds = new Set<string>();

  reject(line: number, message: string, field?: string): void {
    this.rejected++;
    if (this.errors.length < MAX_REPORTED) this.errors.push({ line, message, ...(field ? { field } : {}) });
  }

  forgotten(items: readonly Item[]): void {
    this.skippedForgotten += items.length;
    const reported = items.slice(0, MAX_REPORTED - this.skipped.length);
    this.skipped.push(...reported.map(({ line, clientName }) => ({ line, clientName })));
  }

  progress(): ImportProgress {
    const { lines, imported, skippedForgotten, rejected } = this;
    return { lines, imported, skippedForgotten, rejected };
  }
}

/**
 * Imports reviews from NDJSON lines in batches of 500, one transaction per batch, so a large file
 * streams in constant memory. A bad line is reported and skipped; a batch that collides with an
 * existing review id is retried row by row so only the duplicates are rejected. A line carrying an
 * identifier of a person forgotten in its client (or being forgotten) is skipped and counted as
 * skippedForgotten (docs/design.md, Privacy API, "Suppression"): erased data does not come back.
 */
export async function importReviews(deps: ServiceDeps, input: ImportReviewsInput): Promise<ImportResult> {
  const dryRun = input.dryRun ?? false;
  const tally = new ImportTally();
  const clientIdOf = clientIdsByName(deps, input.environment);
  let batch: Item[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    await (dryRun ? checkBatch(deps, tally, items) : importBatch(deps, tally, items));
    input.onProgress?.(tally.progress());
  };
  for await (const text of input.lines) {
    const line = ++tally.lines;
    if (!text.trim()) continue;
    const item = await readLine(deps, input.environment, clientIdOf, line, text);
    if ('message' in item) {
      tally.reject(line, item.message, item.field);
      continue;
    }
    batch.push(item);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  input.onProgress?.(tally.progress());
  tally.errors.sort((a, b) => a.line - b.line);
  return { dryRun, ...tally.progress(), errors: tally.errors, skipped: tally.skipped };
}

/** The id of each client named in the file, looked up once per name; null for an unknown name. */
function clientIdsByName(deps: ServiceDeps, environment: Environment) {
  const clientIds = new Map<string, string | null>();
  return async (name: string): Promise<string | null> => {
    if (!clientIds.has(name)) {
      const [client] = await findClientsByNames(deps.store.db, environment, [name]);
      clientIds.set(name, client?.id ?? null);
    }
    return clientIds.get(name) ?? null;
  };
}

/** One line as a review to import, or why it is rejected. */
async function readLine(
  deps: ServiceDeps,
  environment: Environment,
  clientIdOf: (name: string) => Promise<string | null>,
  line: number,
  text: string,
): Promise<Item | Omit<ImportRejection, 'line'>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { message: 'not valid JSON' };
  }
  try {
    checkReviewFields(parsed);
    const clientName = parsed.clientName;
    if (typeof clientName !== 'string') throw new ReviewInputError('clientName is required', 'clientName');
    const clientId = await clientIdOf(clientName);
    if (!clientId) {
      throw new ReviewInputError(`no client named "${clientName}" in ${environment}`, 'clientName');
    }
    const record = reviewRecordFromInput(parsed, environment, clientId, deps.identifierKey, deps.clock());
    return { line, clientName, record };
  } catch (err) {
    if (!(err instanceof ReviewInputError)) throw err;
    return { message: err.message, ...(err.field ? { field: err.field } : {}) };
  }
}

/** Writes a batch; if one of its ids is taken, writes its items one by one to reject only those. */
async function importBatch(deps: ServiceDeps, tally: ImportTally, items: readonly Item[]): Promise<void> {
  try {
    const { keep, forgotten } = await writeBatch(deps, items);
    tally.imported += keep.length;
    tally.forgotten(forgotten);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const [only] = items;
    if (items.length === 1 && only) return tally.reject(only.line, DUPLICATE_ID, 'id');
    for (const item of items) await importBatch(deps, tally, [item]);
  }
}

/** One transaction: check suppressions and write what is not suppressed. */
function writeBatch(deps: ServiceDeps, items: readonly Item[]) {
  return inTransaction(deps.store.db, async (trx) => {
    await lockClientsForImport(
      trx,
      items.map((i) => i.record.review.clientId),
    );
    const { keep, forgotten } = await partitionForgotten(trx, items);
    await insertReviews(
      trx,
      keep.map((i) => i.record),
    );
    return { keep, forgotten };
  });
}

/** Dry run: counts what a real import of the batch would import, skip and reject, writing nothing. */
async function checkBatch(deps: ServiceDeps, tally: ImportTally, items: readonly Item[]): Promise<void> {
  const { keep, forgotten } = await partitionForgotten(deps.store.db, items);
  tally.forgotten(forgotten);
  const existing = await findExistingReviewIds(
    deps.store.db,
    keep.map((i) => i.record.review.id),
  );
  for (const item of keep) {
    const id = item.record.review.id;
    if (existing.has(id) || tally.seenIds.has(id)) tally.reject(item.line, DUPLICATE_ID, 'id');
    else tally.imported++;
    tally.seenIds.add(id);
  }
}

/** Splits items into those whose author is suppressed in their client and the others. */
async function partitionForgotten(db: ServiceDeps['store']['db'], items: readonly Item[]) {
  const forgotten = new Set<Item>();
  const byClient = new Map<string, Item[]>();
  for (const item of items) {
    const list = byClient.get(item.record.review.clientId) ?? [];
    list.push(item);
    byClient.set(item.record.review.clientId, list);
  }
  for (const [clientId, list] of byClient) {
    const hashes = list.flatMap((i) => i.record.identifiers.map((x) => x.hash));
    if (hashes.length === 0) continue;
    const suppressed = await findSuppressedHashes(db, { clientId, hashes });
    for (const item of list) {
      if (item.record.identifiers.some((x) => suppressed.has(x.hash))) forgotten.add(item);
    }
  }
  return { keep: items.filter((i) => !forgotten.has(i)), forgotten: items.filter((i) => forgotten.has(i)) };
}
