import { exportedReview } from '../../domain/exported-review.js';
import { addToReceipt, type Receipt } from '../../domain/privacy-receipt.js';
import { profileFieldCount } from '../../domain/review.js';
import { insertAuditEvents } from '../../store/repositories/audit-events.js';
import {
  deleteRequestExports,
  insertExportReviews,
  insertExportSection,
} from '../../store/repositories/privacy-exports.js';
import { markRequestsCompleted } from '../../store/repositories/privacy-request-completions.js';
import {
  findResponsesOfReviews,
  findReviewsByIds,
  findSubjectReviewIds,
} from '../../store/repositories/privacy-subjects.js';
import { enqueueWebhookEvents } from '../../store/repositories/webhook-outbox.js';
import type { Step } from './privacy-batch-step.js';
import { completionEvent, completionWebhook } from './privacy-request-events.js';

const DAY_MS = 86_400_000;

/**
 * Builds one access request's export per client and completes the request, in one transaction.
 * Each review is written with what the export says of it as it is read, a batch at a time, so
 * neither building nor downloading holds a whole export in memory.
 */
export const buildExport: Step = async (deps, trx, { requests, now, owner, receipts }) => {
  const touched = new Map<string, { receipt: Receipt; done: boolean }>();
  const completed = [];
  for (const { request, clientName } of requests) {
    let receipt = receipts.get(request.id) ?? {};
    await deleteRequestExports(trx, request.id);
    for (const [clientId, name] of [...clientName].sort((a, b) => a[1].localeCompare(b[1]))) {
      await insertExportSection(trx, request.id, {
        clientId,
        clientName: name,
        createdAt: now,
        expiresAt: now + deps.config.privacy.exportRetentionDays * DAY_MS,
      });
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
        const exported = [];
        for (const review of await findReviewsByIds(trx, ids)) {
          const own = responses.filter((r) => r.reviewId === review.id);
          exported.push({ reviewId: review.id, content: JSON.stringify(exportedReview(review, own)) });
          receipt = addToReceipt(receipt, name, {
            reviews: 1,
            clientResponses: own.length,
            profileFields: profileFieldCount(review),
          });
        }
        await insertExportReviews(trx, { requestId: request.id, clientId }, exported);
      }
    }
    await markRequestsCompleted(trx, {
      at: now,
      receipts: [{ id: request.id, receipt: JSON.stringify(receipt) }],
    });
    await insertAuditEvents(trx, [completionEvent(request, receipt, { now, owner })]);
    completed.push(completionWebhook(request, clientName.values(), now));
    touched.set(request.id, { receipt, done: true });
  }
  return { touched, webhookDeliveries: await enqueueWebhookEvents(trx, completed) };
};
