import type { Environment } from '../../domain/environment.js';
import type { ReviewRecord } from '../../domain/review.js';
import { checkReviewFields, ReviewInputError, reviewRecordFromInput } from '../../domain/review-record.js';
import { isUniqueViolation } from '../../store/driver-errors.js';
import { lockClientsForImport } from '../../store/repositories/client-erasure-locks.js';
import { findClientsByNames } from '../../store/repositories/clients.js';
import { findSuppressedHashes } from '../../store/repositories/privacy-suppressions.js';
import { findExistingReviewIds, insertReviews } from '../../store/repositories/reviews.js';
import type { ServiceDeps } from '../deps.js';

export interface ImportProgress {
  readonly lines: number;
  readonly imported: number;
  readonly skippedForgotten: number;
  readonly rejected: number;
}

export interface ImportRejection {
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
  readonly lines: AsyncIterable<string>;
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

/**
 * Imports reviews from NDJSON lines in batches of 500, one transaction per batch, so a large file
 * streams in constant memory. A bad line is reported and skipped; a batch that collides with an
 * existing review id is retried row by row so only the duplicates are rejected. A line carrying an
 * identifier of a person forgotten in its client (or being forgotten) is skipped and counted as
 * skippedForgotten (docs/design.md, Privacy API, "Suppression"): erased data does not come back.
 */
export async function importReviews(deps: ServiceDeps, input: ImportReviewsInput): Promise<ImportResult> {
  const { lines, ...options } = input;
  const dryRun = options.dryRun ?? false;
  const clientIds = new Map<string, string | null>();
  const errors: ImportRejection[] = [];
  const skipped: { line: number; clientName: string }[] = [];
  /** Dry run only: ids seen earlier in the file, which a real import would reject as duplicates. */
  const seenIds = new Set<string>();
  let lineNo = 0;
  let imported = 0;
  let rejected = 0;
  let skippedForgotten = 0;
  let batch: Item[] = [];

  const reject = (line: number, message: string, field?: string) => {
    rejected++;
    if (errors.length < MAX_REPORTED) errors.push({ line, message, ...(field ? { field } : {}) });
  };
  const progress = () => ({ lines: lineNo, imported, skippedForgotten, rejected });

  const clientIdFor = async (name: string): Promise<string | null> => {
    if (!clientIds.has(name)) {
      const [client] = await findClientsByNames(deps.store.db, options.environment, [name]);
      clientIds.set(name, client?.id ?? null);
    }
    return clientIds.get(name) ?? null;
  };

  /** Splits items into those whose author is suppressed in their client and the others. */
  const partition = async (db: ServiceDeps['store']['db'], items: readonly Item[]) => {
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
  };

  const countForgotten = (items: readonly Item[]) => {
    skippedForgotten += items.length;
    for (const item of items) {
      if (skipped.length < MAX_REPORTED) skipped.push({ line: item.line, clientName: item.clientName });
    }
  };

  /** One transaction: check suppressions and write what is not suppressed. */
  const write = (items: readonly Item[]) =>
    deps.store.db.transaction().execute(async (trx) => {
      if (deps.store.dialect === 'postgres') {
        await lockClientsForImport(
          trx,
          items.map((i) => i.record.review.clientId),
        );
      }
      const { keep, forgotten } = await partition(trx, items);
      await insertReviews(
        trx,
        keep.map((i) => i.record),
      );
      return { keep, forgotten };
    });

  const check = async (items: readonly Item[]) => {
    const { keep, forgotten } = await partition(deps.store.db, items);
    countForgotten(forgotten);
    const existing = await findExistingReviewIds(
      deps.store.db,
      keep.map((i) => i.record.review.id),
    );
    for (const item of keep) {
      const id = item.record.review.id;
      if (existing.has(id) || seenIds.has(id))
        reject(item.line, 'a review with this id already exists', 'id');
      else imported++;
      seenIds.add(id);
    }
  };

  const flush = async () => {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    if (dryRun) {
      await check(current);
    } else {
      try {
        const { keep, forgotten } = await write(current);
        imported += keep.length;
        countForgotten(forgotten);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        for (const item of current) {
          try {
            const { keep, forgotten } = await write([item]);
            imported += keep.length;
            countForgotten(forgotten);
          } catch (e) {
            if (!isUniqueViolation(e)) throw e;
            reject(item.line, 'a review with this id already exists', 'id');
          }
        }
      }
    }
    options.onProgress?.(progress());
  };

  for await (const text of lines) {
    lineNo++;
    if (!text.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      reject(lineNo, 'not valid JSON');
      continue;
    }
    try {
      checkReviewFields(parsed);
      const clientName = parsed.clientName;
      if (typeof clientName !== 'string') throw new ReviewInputError('clientName is required', 'clientName');
      const clientId = await clientIdFor(clientName);
      if (!clientId) {
        throw new ReviewInputError(`no client named "${clientName}" in ${options.environment}`, 'clientName');
      }
      const record = reviewRecordFromInput(
        parsed,
        options.environment,
        clientId,
        deps.identifierKey,
        deps.clock(),
      );
      batch.push({ line: lineNo, clientName, record });
    } catch (err) {
      if (!(err instanceof ReviewInputError)) throw err;
      reject(lineNo, err.message, err.field);
      continue;
    }
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  options.onProgress?.(progress());
  errors.sort((a, b) => a.line - b.line);
  return { dryRun, ...progress(), errors, skipped };
}
