import type { Environment } from '../../domain/environment.js';
import type { ReviewRecord } from '../../domain/review.js';
import { ReviewInputError, reviewRecordFromInput } from '../../domain/review-record.js';
import { isUniqueViolation } from '../../store/driver-errors.js';
import { findClientsByNames } from '../../store/repositories/clients.js';
import { insertReviews } from '../../store/repositories/reviews.js';
import type { ServiceDeps } from '../deps.js';

export interface ImportProgress {
  readonly lines: number;
  readonly imported: number;
  readonly rejected: number;
}

export interface ImportResult extends ImportProgress {
  /** First rejections, with line numbers and reasons (never the line's content). */
  readonly errors: readonly { line: number; message: string }[];
}

const BATCH = 500;
const MAX_REPORTED_ERRORS = 100;

/**
 * Imports reviews from NDJSON lines in batches of 500, one transaction per batch, so a large file
 * streams in constant memory. A bad line is reported and skipped; a batch that collides with an
 * existing review id is retried row by row so only the duplicates are rejected.
 */
export interface ImportReviewsInput {
  /** NDJSON lines, one review each. */
  readonly lines: AsyncIterable<string>;
  readonly environment: Environment;
  readonly onProgress?: (p: ImportProgress) => void;
}

export async function importReviews(deps: ServiceDeps, input: ImportReviewsInput): Promise<ImportResult> {
  const { lines, ...options } = input;
  const clientIds = new Map<string, string | null>();
  const errors: { line: number; message: string }[] = [];
  let lineNo = 0;
  let imported = 0;
  let rejected = 0;
  let batch: { line: number; record: ReviewRecord }[] = [];

  const reject = (line: number, message: string) => {
    rejected++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, message });
  };

  const clientIdFor = async (name: string): Promise<string | null> => {
    if (!clientIds.has(name)) {
      const [client] = await findClientsByNames(deps.store.db, options.environment, [name]);
      clientIds.set(name, client?.id ?? null);
    }
    return clientIds.get(name) ?? null;
  };

  const flush = async () => {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    try {
      await deps.store.db.transaction().execute((trx) =>
        insertReviews(
          trx,
          current.map((b) => b.record),
        ),
      );
      imported += current.length;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      for (const item of current) {
        try {
          await deps.store.db.transaction().execute((trx) => insertReviews(trx, [item.record]));
          imported++;
        } catch (e) {
          if (!isUniqueViolation(e)) throw e;
          reject(item.line, 'a review with this id already exists');
        }
      }
    }
    options.onProgress?.({ lines: lineNo, imported, rejected });
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
    const clientName = (parsed as { clientName?: unknown } | null)?.clientName;
    if (typeof clientName !== 'string') {
      reject(lineNo, 'clientName is required');
      continue;
    }
    const clientId = await clientIdFor(clientName);
    if (!clientId) {
      reject(lineNo, `no client named "${clientName}" in ${options.environment}`);
      continue;
    }
    try {
      const record = reviewRecordFromInput(
        parsed,
        options.environment,
        clientId,
        deps.identifierKey,
        deps.clock(),
      );
      batch.push({ line: lineNo, record });
    } catch (err) {
      if (!(err instanceof ReviewInputError)) throw err;
      reject(lineNo, err.message);
      continue;
    }
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  options.onProgress?.({ lines: lineNo, imported, rejected });
  return { lines: lineNo, imported, rejected, errors };
}
