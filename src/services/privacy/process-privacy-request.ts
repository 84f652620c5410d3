import type { Kysely } from 'kysely';
import { addToReceipt, emptyReceipt, parseReceipt, type Receipt } from '../../domain/privacy-receipt.js';
import { profileFieldCount } from '../../domain/review.js';
import { isTransientConflict } from '../../store/driver-errors.js';
import { lockClientsForErasure } from '../../store/repositories/client-erasure-locks.js';
import { markCompactionOwed } from '../../store/repositories/privacy-compactions.js';
import {
  deleteExportSections,
  deleteExportSectionsHolding,
  replaceExports,
} from '../../store/repositories/privacy-exports.js';
import { releaseLease, renewLease } from '../../store/repositories/privacy-request-leases.js';
import {
  dropMaskedValues,
  findRequestClients,
  findRequestsNamingSubject,
  markRequestCompleted,
  saveReceipt,
} from '../../store/repositories/privacy-requests.js';
import {
  deleteResponsesOfReviews,
  deleteReviewsByIds,
  findResponsesOfReviews,
  findReviewsByIds,
  findSubjectReviewIds,
  lockReviews,
} from '../../store/repositories/privacy-subjects.js';
import { suppressSubject } from '../../store/repositories/privacy-suppressions.js';
import type { Database, PrivacyRequestRow } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';
import { exportedReview, exportSection } from './access-export-document.js';

export type ProcessOutcome =
  | { readonly status: 'completed'; readonly receipt: Receipt }
  /** Another worker holds the request now (this worker's lease ran out); it carries on. */
  | { readonly status: 'lease-lost' }
  /** Stopped between batches on request; the lease was handed back for any worker to resume. */
  | { readonly status: 'interrupted' };

export interface ProcessPrivacyRequestInput {
  /** The request as claimed (claimPrivacyRequest). */
  readonly request: PrivacyRequestRow;
  /** The lease owner that claimed it. */
  readonly owner: string;
  /** Called after each committed batch (progress reporting). */
  readonly afterBatch?: (progress: { requestId: string; batches: number; receipt: Receipt }) => unknown;
  /** Checked between batches: a stopping worker ends after the batch in progress. */
  readonly signal?: AbortSignal;
}

class LeaseLost extends Error {}

const DAY_MS = 86_400_000;

/**
 * Carries out a claimed request, for the subject's named and linked identifiers as fixed when it
 * was accepted. Forget requests erase in batches of WORKER_BATCH_SIZE reviews; each batch is one
 * transaction that checks the lease, deletes the subject's reviews with their client responses,
 * profile fields and every export section that copied them, adds what it deleted to the receipt
 * and extends the lease. A crash between batches loses nothing (committed batches stay done) and
 * repeats nothing (the next batch only finds rows that still exist); the last batch also removes
 * what other requests about the person hold, suppresses the person's identifiers, completes the
 * request and releases its pending keys in the same transaction. Access requests build their
 * export and complete in one transaction. On SQLite, concurrent lanes' batches share their
 * commits (store/group-commit.ts).
 */
export async function processPrivacyRequest(
  deps: ServiceDeps,
  input: ProcessPrivacyRequestInput,
): Promise<ProcessOutcome> {
  const { request, ...options } = input;
  const clients = (await findRequestClients(deps.store.db, [request.id])).get(request.id) ?? [];
  const clientName = new Map(clients.map((c) => [c.id, c.name]));
  const step = request.type === 'forget' ? eraseBatch : buildExport;
  let batches = 0;
  try {
    for (;;) {
      const result = await retryTransient(() =>
        deps.store.groupCommit(async (trx) => {
          const now = deps.clock();
          const current = await renewLease(trx, {
            id: request.id,
            owner: options.owner,
            leaseUntil: now + deps.config.worker.leaseMs,
          });
          if (!current) throw new LeaseLost();
          const receipt = parseReceipt(current.receipt) ?? emptyReceipt(clients.map((c) => c.name));
          return step(deps, trx, { request, clientName, receipt, now });
        }),
      );
      batches++;
      await options.afterBatch?.({ requestId: request.id, batches, receipt: result.receipt });
      if (result.done) return { status: 'completed', receipt: result.receipt };
      if (options.signal?.aborted) {
        await releaseLease(deps.store.db, { id: request.id, owner: options.owner });
        return { status: 'interrupted' };
      }
    }
  } catch (err) {
    if (err instanceof LeaseLost) return { status: 'lease-lost' };
    // Hand the request back so that a retry need not wait for the lease to run out.
    await releaseLease(deps.store.db, { id: request.id, owner: options.owner }).catch(() => {});
    throw err;
  }
}

const TRANSIENT_ATTEMPTS = 5;

/**
 * A batch rolled back by a deadlock or serialization failure (PostgreSQL) or a busy database
 * (SQLite) changed nothing, so it is simply run again.
 */
async function retryTransient<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= TRANSIENT_ATTEMPTS || !isTransientConflict(err)) throw err;
    }
  }
}

interface StepInput {
  readonly request: PrivacyRequestRow;
  readonly clientName: ReadonlyMap<string, string>;
  readonly receipt: Receipt;
  readonly now: number;
}

type Step = (
  deps: ServiceDeps,
  trx: Kysely<Database>,
  input: StepInput,
) => Promise<{ done: boolean; receipt: Receipt }>;

const eraseBatch: Step = async (deps, trx, { request, clientName, now, ...input }) => {
  const batchSize = deps.config.worker.batchSize;
  const scope = { requestId: request.id };
  let ids = await findSubjectReviewIds(trx, scope, { limit: batchSize });
  if (ids.length < batchSize && deps.store.dialect === 'postgres') {
    // Possibly the last batch: wait for imports into these clients to commit, and keep new ones
    // out until the suppression below is visible (store/repositories/client-erasure-locks.ts).
    await lockClientsForErasure(trx, [...clientName.keys()]);
    ids = await findSubjectReviewIds(trx, scope, { limit: batchSize });
  }
  if (deps.store.dialect === 'postgres') await lockReviews(trx, ids);
  let receipt = input.receipt;
  for (const r of await deleteResponsesOfReviews(trx, ids)) {
    receipt = addToReceipt(receipt, clientName.get(r.clientId) ?? r.clientId, { clientResponses: 1 });
  }
  for (const review of await deleteReviewsByIds(trx, ids)) {
    receipt = addToReceipt(receipt, clientName.get(review.clientId) ?? review.clientId, {
      reviews: 1,
      profileFields: profileFieldCount(review),
    });
  }
  // GDPR Art. 17: copies go with the original. Every export section holding one of these reviews,
  // whoever filed it and under whichever identifier, and the masked identifiers of its request.
  const holding = await deleteExportSectionsHolding(trx, ids);
  receipt = countExports(
    receipt,
    clientName,
    holding.map((h) => h.clientId),
  );
  await dropMaskedValues(trx, [...new Set(holding.map((h) => h.requestId))]);
  if (ids.length === batchSize) {
    await saveReceipt(trx, request.id, JSON.stringify(receipt));
    return { done: false, receipt };
  }
  // A request that named one of the person's identifiers in a client both requests name is about
  // the same end user: its section for that client goes even when it holds no review (it still
  // says what was asked about whom), and so do its masked identifiers and this request's own.
  const naming = await findRequestsNamingSubject(trx, request.id);
  const removed = await deleteExportSections(trx, naming);
  receipt = countExports(receipt, clientName, removed);
  await dropMaskedValues(trx, [request.id, ...new Set(naming.map((r) => r.requestId))]);
  // Imports refuse the person's identifiers from now on, so erased data cannot come back.
  await suppressSubject(trx, { requestId: request.id, now });
  // PostgreSQL keeps deleted rows in its table files until they are rewritten (PRIVACY_COMPACT).
  await markCompactionOwed(trx, now);
  await markRequestCompleted(trx, { id: request.id, at: now, receipt: JSON.stringify(receipt) });
  return { done: true, receipt };
};

/** Adds removed export sections (the client id of each) to the receipt. */
function countExports(
  receipt: Receipt,
  clientName: ReadonlyMap<string, string>,
  clientIds: readonly string[],
): Receipt {
  let counted = receipt;
  for (const clientId of clientIds) {
    counted = addToReceipt(counted, clientName.get(clientId) ?? clientId, { accessExports: 1 });
  }
  return counted;
}

const buildExport: Step = async (deps, trx, { request, clientName, now, ...input }) => {
  let receipt = input.receipt;
  const sections = [];
  for (const [clientId, name] of [...clientName].sort((a, b) => a[1].localeCompare(b[1]))) {
    const reviews: ReturnType<typeof exportedReview>[] = [];
    const reviewIds: string[] = [];
    let after: string | undefined;
    for (;;) {
      const ids = await findSubjectReviewIds(
        trx,
        { requestId: request.id, clientId },
        { limit: deps.config.worker.batchSize, ...(after !== undefined ? { after } : {}) },
      );
      if (ids.length === 0) break;
      after = ids[ids.length - 1];
      const responses = await findResponsesOfReviews(trx, ids);
      for (const review of await findReviewsByIds(trx, ids)) {
        const own = responses.filter((r) => r.reviewId === review.id);
        reviews.push(exportedReview(review, own));
        reviewIds.push(review.id);
        receipt = addToReceipt(receipt, name, {
          reviews: 1,
          clientResponses: own.length,
          profileFields: profileFieldCount(review),
        });
      }
    }
    sections.push({
      clientId,
      clientName: name,
      content: exportSection(name, reviews),
      reviewIds,
      createdAt: now,
      expiresAt: now + deps.config.privacy.exportRetentionDays * DAY_MS,
    });
  }
  await replaceExports(trx, request.id, sections);
  await markRequestCompleted(trx, { id: request.id, at: now, receipt: JSON.stringify(receipt) });
  return { done: true, receipt };
};
