import { emptyReceipt, parseReceipt, type Receipt } from '../../domain/privacy-receipt.js';
import {
  findCompletedReceipts,
  releaseLeases,
  renewLeases,
} from '../../store/repositories/privacy-request-leases.js';
import { findRequestClients } from '../../store/repositories/privacy-requests.js';
import type { PrivacyRequestRow } from '../../store/schema.js';
import type { ServiceDeps } from '../deps.js';
import { createRetryBackoff } from '../health/create-retry-backoff.js';
import { retryThroughOutage } from '../health/retry-through-outage.js';
import { buildExport } from './build-export.js';
import { eraseBatch } from './erase-batch.js';
import type { Open, StepResult } from './privacy-batch-step.js';

export type ProcessOutcome =
  | { readonly status: 'completed'; readonly receipt: Receipt }
  /** Another worker holds the request now (this worker's lease ran out); it carries on. */
  | { readonly status: 'lease-lost' }
  /** Stopped between batches on request; the lease was handed back for any worker to resume. */
  | { readonly status: 'interrupted' };

export interface ProcessPrivacyRequestsInput {
  /** The requests as claimed (claimPrivacyRequests), all by this owner. */
  readonly requests: readonly PrivacyRequestRow[];
  /** The lease owner that claimed them. */
  readonly owner: string;
  /** Called, for each request a committed batch changed, after that batch (progress reporting). */
  readonly afterBatch?: (progress: { requestId: string; batches: number; receipt: Receipt }) => unknown;
  /**
   * Called once for each request as soon as its outcome is known: a small request claimed beside
   * a large erasure is reported when the batch that completed it commits, not when the large one
   * ends.
   */
  readonly onOutcome?: (request: PrivacyRequestRow, outcome: ProcessOutcome) => unknown;
  /**
   * Checked between batches: a stopping worker ends after the batch in progress. Until it fires,
   * a batch that failed because the database could not be reached is run again once it can.
   */
  readonly signal?: AbortSignal;
}

export interface ProcessPrivacyRequestInput extends Omit<ProcessPrivacyRequestsInput, 'requests'> {
  /** The request as claimed (claimPrivacyRequest). */
  readonly request: PrivacyRequestRow;
}

/** What one committed batch did to each request it touched. */
interface BatchResult extends StepResult {
  /** Held by another worker now. */
  readonly lost: readonly string[];
  /** Found completed before this batch: by a commit whose answer did not arrive, or elsewhere. */
  readonly completed: ReadonlyMap<string, string | null>;
}

/** Carries out one claimed request (see processPrivacyRequests). */
export async function processPrivacyRequest(
  deps: ServiceDeps,
  input: ProcessPrivacyRequestInput,
): Promise<ProcessOutcome> {
  const { request, ...options } = input;
  const outcomes = await processPrivacyRequests(deps, { ...options, requests: [request] });
  return outcomes.get(request.id) ?? { status: 'lease-lost' };
}

/**
 * Carries out claimed requests, for each subject's named and linked identifiers as fixed when the
 * request was accepted. Forget requests are erased together: each batch is one transaction that
 * checks the leases of every request still open, deletes up to WORKER_BATCH_SIZE of their subjects'
 * reviews (shared round-robin, so one person with very many reviews is erased over several bounded
 * batches without holding up the others) with their client responses, profile fields and every
 * export section that copied them, and adds what it deleted to each request's receipt. A request
 * whose last reviews are in the batch also loses what other requests hold about the person, has
 * its identifiers suppressed, and completes with its pending keys released, in the same
 * transaction, and is reported at once (onOutcome); the rest go on in the next batch. Every batch
 * extends the leases of all the claimed requests still open, access requests waiting behind the
 * erasures included, so none runs out while this worker is still working on it. Each statement
 * covers the whole batch, so a request costs a few statements' share however many travel together.
 * A crash or failure anywhere in a batch rolls all of it back: committed batches stay done and
 * nothing is counted twice (the next batch only finds rows that still exist), so a batch the
 * database went away under is simply run again once it is back (retryThroughOutage). Access
 * requests build their export and complete in one transaction each, taking turns with the erasure
 * batches. On SQLite, concurrent lanes'
 * batches also share their commits (store/group-commit.ts).
 */
export async function processPrivacyRequests(
  deps: ServiceDeps,
  input: ProcessPrivacyRequestsInput,
): Promise<Map<string, ProcessOutcome>> {
  const outcomes = new Map<string, ProcessOutcome>();
  if (input.requests.length === 0) return outcomes;
  const settle = async (request: PrivacyRequestRow, outcome: ProcessOutcome) => {
    outcomes.set(request.id, outcome);
    await input.onOutcome?.(request, outcome);
  };
  const ids = input.requests.map((r) => r.id);
  try {
    const clients = await retryThroughOutage(deps, () => findRequestClients(deps.store.db, ids), {
      signal: input.signal,
    });
    const open = input.requests.map((request) => ({
      request,
      clientName: new Map((clients.get(request.id) ?? []).map((c) => [c.id, c.name])),
      batches: 0,
    }));
    await runBatches(deps, input, open, settle);
  } catch (err) {
    // Hand back every request not carried out, so that a retry need not wait for the leases to
    // run out (completed ones are no longer pending, so they are left as they are).
    const left = ids.filter((id) => !outcomes.has(id));
    await releaseLeases(deps.store.db, { ids: left, owner: input.owner }).catch(() => {});
    throw err;
  }
  return outcomes;
}

type Settle = (request: PrivacyRequestRow, outcome: ProcessOutcome) => Promise<void>;

/**
 * Transactions alternate between a batch of all the open forget requests and the export of one
 * access request; every transaction renews the leases of all that are still open.
 */
async function runBatches(
  deps: ServiceDeps,
  input: ProcessPrivacyRequestsInput,
  requests: Open[],
  settle: Settle,
): Promise<void> {
  let open = requests;
  const backoff = createRetryBackoff();
  let exportTurn = true;
  while (open.length > 0) {
    if (input.signal?.aborted) {
      // Stopping: the batch in progress has committed; the rest go back for any worker.
      await releaseLeases(deps.store.db, { ids: open.map((o) => o.request.id), owner: input.owner });
      for (const o of open) await settle(o.request, { status: 'interrupted' });
      return;
    }
    // Erasure batches and exports take turns, so neither kind waits for all of the other.
    const erasing = open.filter((o) => o.request.type === 'forget');
    const exporting = open.filter((o) => o.request.type === 'access');
    exportTurn = exporting.length > 0 && (erasing.length === 0 || !exportTurn);
    const [working, step] = exportTurn ? [exporting.slice(0, 1), buildExport] : [erasing, eraseBatch];
    const all = open;
    const byId = new Map(all.map((o) => [o.request.id, o]));
    const result = await retryThroughOutage(
      deps,
      () =>
        deps.store.groupCommit(async (trx) => {
          await deps.store.useBackgroundDeadline(trx);
          const now = deps.clock();
          const held = await renewLeases(trx, {
            ids: all.map((o) => o.request.id),
            owner: input.owner,
            leaseUntil: now + deps.config.worker.leaseMs,
          });
          const heldIds = new Set(held.map((r) => r.id));
          const receipts = new Map(
            held.map((r) => {
              const names = [...(byId.get(r.id)?.clientName.values() ?? [])];
              return [r.id, parseReceipt(r.receipt) ?? emptyReceipt(names)] as const;
            }),
          );
          const mine = working.filter((o) => heldIds.has(o.request.id));
          const done = await step(deps, trx, { requests: mine, receipts, now, owner: input.owner });
          const missed = all.filter((o) => !heldIds.has(o.request.id)).map((o) => o.request.id);
          const completed = await findCompletedReceipts(trx, missed);
          const lost = missed.filter((id) => !completed.has(id));
          return { ...done, lost, completed } satisfies BatchResult;
        }),
      { signal: input.signal, backoff },
    );
    open = await settleBatch(deps, input, byId, result, settle);
  }
}

/** Reports what a committed batch finished; returns the requests still open, in claim order. */
async function settleBatch(
  deps: ServiceDeps,
  input: ProcessPrivacyRequestsInput,
  byId: Map<string, Open>,
  result: BatchResult,
  settle: Settle,
): Promise<Open[]> {
  for (const id of result.lost) {
    const o = byId.get(id);
    byId.delete(id);
    if (o) await settle(o.request, { status: 'lease-lost' });
  }
  for (const [id, receipt] of result.completed) {
    const o = byId.get(id);
    byId.delete(id);
    if (o) await settle(o.request, { status: 'completed', receipt: parseReceipt(receipt) ?? {} });
  }
  const next: Open[] = [];
  for (const o of byId.values()) {
    const change = result.touched.get(o.request.id);
    if (change) {
      o.batches++;
      await input.afterBatch?.({ requestId: o.request.id, batches: o.batches, receipt: change.receipt });
      if (change.done) {
        deps.metrics.privacyRequestCompleted(
          o.request.type,
          o.request.type === 'forget' ? Object.values(change.receipt).reduce((n, c) => n + c.reviews, 0) : 0,
        );
        await settle(o.request, { status: 'completed', receipt: change.receipt });
        continue;
      }
    }
    next.push(o);
  }
  // Once a batch, and only when it wrote deliveries: a wake-up costs the webhook worker a query.
  if (result.webhookDeliveries > 0) deps.webhookWork?.notify();
  return next;
}
