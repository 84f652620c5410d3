import type { Kysely } from 'kysely';
import { addToReceipt, type Receipt } from '../../domain/privacy-receipt.js';
import { profileFieldCount } from '../../domain/review.js';
import { insertAuditEvents } from '../../store/repositories/audit-events.js';
import { lockClientsForErasure } from '../../store/repositories/client-erasure-locks.js';
import { markCompactionOwed } from '../../store/repositories/privacy-compactions.js';
import {
  deleteExportSections,
  deleteExportSectionsHolding,
} from '../../store/repositories/privacy-exports.js';
import { markRequestsCompleted, saveReceipts } from '../../store/repositories/privacy-request-completions.js';
import {
  dropMaskedValues,
  findRequestsNamingSubjects,
} from '../../store/repositories/privacy-request-identifiers.js';
import {
  deleteResponsesOfReviews,
  deleteReviewsByIds,
  findSubjectReviewsOfRequests,
  lockReviews,
} from '../../store/repositories/privacy-subjects.js';
import { suppressSubjects } from '../../store/repositories/privacy-suppressions.js';
import { enqueueWebhookEvents } from '../../store/repositories/webhook-outbox.js';
import type { Database } from '../../store/schema.js';
import type { Open, Step, StepInput } from './privacy-batch-step.js';
import { completionEvent, completionWebhook } from './privacy-request-events.js';

/**
 * Erases the next batch of the open forget requests' reviews (processPrivacyRequests describes the
 * batch), and completes each request whose last reviews it held.
 */
export const eraseBatch: Step = async (deps, trx, input) => {
  const tally = receiptTally(input);
  if (input.requests.length === 0) return { touched: tally.touched, webhookDeliveries: 0 };
  // Any of these may be on its last batch: wait for imports into their clients to commit, and
  // keep new ones out until the suppressions below are visible
  // (store/repositories/client-erasure-locks.ts).
  await lockClientsForErasure(trx, [...new Set(input.requests.flatMap((o) => [...o.clientName.keys()]))]);
  const batch = await nextReviews(trx, input.requests, deps.config.worker.batchSize);
  const holding = await eraseReviews(trx, batch.erasedFor, tally);
  const naming = await eraseWhatOthersHold(trx, batch.finished, tally);
  await dropMaskedValues(trx, [...new Set([...holding, ...batch.finished, ...naming])]);
  const progressed = [...tally.touched.keys()].filter((id) => !batch.finished.includes(id));
  await saveReceipts(
    trx,
    progressed.map((id) => ({ id, receipt: JSON.stringify(tally.receipts.get(id)) })),
  );
  if (batch.finished.length === 0) return { touched: tally.touched, webhookDeliveries: 0 };
  const webhookDeliveries = await completeRequests(trx, input, batch.finished, tally);
  return { touched: tally.touched, webhookDeliveries };
};

type ReceiptTally = ReturnType<typeof receiptTally>;

/** Each request's receipt, as what the batch erases is counted into it. */
function receiptTally(input: StepInput) {
  const byId = new Map(input.requests.map((o) => [o.request.id, o]));
  const receipts = new Map(input.receipts);
  const touched = new Map<string, { receipt: Receipt; done: boolean }>();
  return {
    byId,
    receipts,
    touched,
    count(requestId: string, clientId: string, counts: Parameters<typeof addToReceipt>[2]) {
      const name = byId.get(requestId)?.clientName.get(clientId) ?? clientId;
      receipts.set(requestId, addToReceipt(receipts.get(requestId) ?? {}, name, counts));
      touched.set(requestId, { receipt: receipts.get(requestId) ?? {}, done: false });
    },
    done(requestId: string) {
      touched.set(requestId, { receipt: receipts.get(requestId) ?? {}, done: true });
    },
  };
}

/**
 * The batch's share of the requests' reviews, each with the request it is erased for, and the
 * requests whose last reviews are among them.
 */
async function nextReviews(trx: Kysely<Database>, requests: readonly Open[], budget: number) {
  // One pair beyond the budget says where the round-robin was cut.
  const found = await findSubjectReviewsOfRequests(
    trx,
    requests.map((o) => o.request.id),
    budget + 1,
  );
  const cut = found.length > budget ? found.pop() : undefined;
  const erasedFor = new Map<string, string>();
  const taken = new Map<string, number>();
  for (const f of found) {
    if (!erasedFor.has(f.reviewId)) erasedFor.set(f.reviewId, f.requestId);
    taken.set(f.requestId, (taken.get(f.requestId) ?? 0) + 1);
  }
  // A request is finished in this batch when its next review, had it one, would have come before
  // the cut in round-robin order (rank, then request id).
  const finished = requests
    .map((o) => o.request.id)
    .filter((id) => {
      if (!cut) return true;
      const next = (taken.get(id) ?? 0) + 1;
      return next < cut.rank || (next === cut.rank && id < cut.requestId);
    });
  return { erasedFor, finished };
}

/**
 * Deletes the reviews with their responses and every export section holding one; returns the
 * requests whose sections went.
 */
async function eraseReviews(
  trx: Kysely<Database>,
  erasedFor: ReadonlyMap<string, string>,
  tally: ReceiptTally,
): Promise<string[]> {
  const ids = [...erasedFor.keys()].sort();
  const requestOf = (reviewId: string) => erasedFor.get(reviewId) ?? '';
  await lockReviews(trx, ids);
  for (const r of await deleteResponsesOfReviews(trx, ids)) {
    tally.count(requestOf(r.reviewId), r.clientId, { clientResponses: 1 });
  }
  for (const review of await deleteReviewsByIds(trx, ids)) {
    tally.count(requestOf(review.id), review.clientId, {
      reviews: 1,
      profileFields: profileFieldCount(review),
    });
  }
  // GDPR Art. 17: copies go with the original. Every export section holding one of these reviews,
  // whoever filed it and under whichever identifier, and the masked identifiers of its request.
  const holding = await deleteExportSectionsHolding(trx, ids);
  for (const h of holding) tally.count(requestOf(h.reviewId), h.clientId, { accessExports: 1 });
  return holding.map((h) => h.requestId);
}

/**
 * A request that named one of a person's identifiers in a client both requests name is about
 * the same end user: its section for that client goes even when it holds no review (it still
 * says what was asked about whom), and so do its masked identifiers and the erasing request's.
 * Returns the requests that named them.
 */
async function eraseWhatOthersHold(
  trx: Kysely<Database>,
  finished: readonly string[],
  tally: ReceiptTally,
): Promise<string[]> {
  const naming = await findRequestsNamingSubjects(trx, finished);
  const removed = await deleteExportSections(trx, naming);
  const removedLeft = [...removed];
  for (const n of naming) {
    const at = removedLeft.indexOf(n.clientId);
    if (at === -1) continue;
    removedLeft.splice(at, 1);
    tally.count(n.subjectRequestId, n.clientId, { accessExports: 1 });
  }
  return naming.map((n) => n.requestId);
}

/** Completes the finished requests with their receipts and events; returns the webhook deliveries. */
async function completeRequests(
  trx: Kysely<Database>,
  { now, owner }: StepInput,
  finished: readonly string[],
  tally: ReceiptTally,
): Promise<number> {
  // Imports refuse the people's identifiers from now on, so erased data cannot come back.
  await suppressSubjects(trx, { requestIds: finished, now });
  // PostgreSQL keeps deleted rows in its table files until they are rewritten (PRIVACY_COMPACT).
  await markCompactionOwed(trx, now);
  await markRequestsCompleted(trx, {
    at: now,
    receipts: finished.map((id) => ({ id, receipt: JSON.stringify(tally.receipts.get(id)) })),
  });
  const completed = finished.flatMap((id) => tally.byId.get(id) ?? []);
  await insertAuditEvents(
    trx,
    completed.map((o) => completionEvent(o.request, tally.receipts.get(o.request.id) ?? {}, { now, owner })),
  );
  const deliveries = await enqueueWebhookEvents(
    trx,
    completed.map((o) => completionWebhook(o.request, o.clientName.values(), now)),
  );
  for (const id of finished) tally.done(id);
  return deliveries;
}
