import { addToReceipt, type Receipt } from '../../domain/privacy-receipt.js';
import { profileFieldCount } from '../../domain/review.js';
import { insertAuditEvents } from '../../store/repositories/audit-events.js';
import { lockClientsForErasure } from '../../store/repositories/client-erasure-locks.js';
import { markCompactionOwed } from '../../store/repositories/privacy-compactions.js';
import {
  deleteExportSections,
  deleteExportSectionsHolding,
} from '../../store/repositories/privacy-exports.js';
import {
  dropMaskedValues,
  findRequestsNamingSubjects,
  markRequestsCompleted,
  saveReceipts,
} from '../../store/repositories/privacy-requests.js';
import {
  deleteResponsesOfReviews,
  deleteReviewsByIds,
  findSubjectReviewsOfRequests,
  lockReviews,
} from '../../store/repositories/privacy-subjects.js';
import { suppressSubjects } from '../../store/repositories/privacy-suppressions.js';
import { enqueueWebhookEvents } from '../../store/repositories/webhook-outbox.js';
import type { Step } from './privacy-batch-step.js';
import { completionEvent, completionWebhook } from './privacy-request-events.js';

/**
 * Erases the next batch of the open forget requests' reviews (processPrivacyRequests describes the
 * batch), and completes each request whose last reviews it held.
 */
export const eraseBatch: Step = async (deps, trx, { requests, now, owner: leaseOwner, ...input }) => {
  const touched = new Map<string, { receipt: Receipt; done: boolean }>();
  if (requests.length === 0) return { touched, webhookDeliveries: 0 };
  const byId = new Map(requests.map((o) => [o.request.id, o]));
  const receipts = new Map(input.receipts);
  const count = (requestId: string, clientId: string, counts: Parameters<typeof addToReceipt>[2]) => {
    const name = byId.get(requestId)?.clientName.get(clientId) ?? clientId;
    receipts.set(requestId, addToReceipt(receipts.get(requestId) ?? {}, name, counts));
    touched.set(requestId, { receipt: receipts.get(requestId) ?? {}, done: false });
  };
  if (deps.store.dialect === 'postgres') {
    // Any of these may be on its last batch: wait for imports into their clients to commit, and
    // keep new ones out until the suppressions below are visible
    // (store/repositories/client-erasure-locks.ts).
    await lockClientsForErasure(trx, [...new Set(requests.flatMap((o) => [...o.clientName.keys()]))]);
  }
  let webhookDeliveries = 0;
  const budget = deps.config.worker.batchSize;
  // One pair beyond the budget says where the round-robin was cut.
  const found = await findSubjectReviewsOfRequests(
    trx,
    deps.store.dialect,
    requests.map((o) => o.request.id),
    budget + 1,
  );
  const cut = found.length > budget ? found.pop() : undefined;
  const owner = new Map<string, string>();
  const taken = new Map<string, number>();
  for (const f of found) {
    if (!owner.has(f.reviewId)) owner.set(f.reviewId, f.requestId);
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
  const ids = [...owner.keys()].sort();
  if (deps.store.dialect === 'postgres') await lockReviews(trx, ids);
  for (const r of await deleteResponsesOfReviews(trx, ids)) {
    count(owner.get(r.reviewId) ?? '', r.clientId, { clientResponses: 1 });
  }
  for (const review of await deleteReviewsByIds(trx, ids)) {
    count(owner.get(review.id) ?? '', review.clientId, {
      reviews: 1,
      profileFields: profileFieldCount(review),
    });
  }
  // GDPR Art. 17: copies go with the original. Every export section holding one of these reviews,
  // whoever filed it and under whichever identifier, and the masked identifiers of its request.
  const holding = await deleteExportSectionsHolding(trx, ids);
  for (const h of holding) count(owner.get(h.reviewId) ?? '', h.clientId, { accessExports: 1 });
  // A request that named one of a person's identifiers in a client both requests name is about
  // the same end user: its section for that client goes even when it holds no review (it still
  // says what was asked about whom), and so do its masked identifiers and the erasing request's.
  const naming = await findRequestsNamingSubjects(trx, deps.store.dialect, finished);
  const removed = await deleteExportSections(trx, naming);
  const removedLeft = [...removed];
  for (const n of naming) {
    const at = removedLeft.indexOf(n.clientId);
    if (at === -1) continue;
    removedLeft.splice(at, 1);
    count(n.subjectRequestId, n.clientId, { accessExports: 1 });
  }
  await dropMaskedValues(trx, [
    ...new Set([...holding.map((h) => h.requestId), ...finished, ...naming.map((n) => n.requestId)]),
  ]);
  const progressed = [...touched.keys()].filter((id) => !finished.includes(id));
  await saveReceipts(
    trx,
    progressed.map((id) => ({ id, receipt: JSON.stringify(receipts.get(id)) })),
  );
  if (finished.length > 0) {
    // Imports refuse the people's identifiers from now on, so erased data cannot come back.
    await suppressSubjects(trx, { requestIds: finished, now });
    // PostgreSQL keeps deleted rows in its table files until they are rewritten (PRIVACY_COMPACT).
    await markCompactionOwed(trx, now);
    await markRequestsCompleted(trx, {
      at: now,
      receipts: finished.map((id) => ({ id, receipt: JSON.stringify(receipts.get(id)) })),
    });
    await insertAuditEvents(
      trx,
      finished.flatMap((id) => {
        const o = byId.get(id);
        return o ? [completionEvent(o.request, receipts.get(id) ?? {}, { now, owner: leaseOwner })] : [];
      }),
    );
    webhookDeliveries = await enqueueWebhookEvents(
      trx,
      finished.flatMap((id) => {
        const o = byId.get(id);
        return o ? [completionWebhook(o.request, o.clientName.values(), now)] : [];
      }),
    );
    for (const id of finished) touched.set(id, { receipt: receipts.get(id) ?? {}, done: true });
  }
  return { touched, webhookDeliveries };
};
