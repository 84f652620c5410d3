import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ServiceDeps } from '../services/deps.js';
import { createRetryBackoff } from '../services/health/create-retry-backoff.js';
import { reportFailure } from '../services/health/report-failure.js';
import { claimPrivacyRequests } from '../services/privacy/claim-privacy-request.js';
import {
  type ProcessPrivacyRequestsInput,
  processPrivacyRequests,
} from '../services/privacy/process-privacy-request.js';
import { createWorkSignal } from '../services/privacy/work-signal.js';
import { createPrivacyHousekeeping } from './privacy-housekeeping.js';
import { processTraced } from './privacy-request-spans.js';
import { createScrubSchedule, type ScrubSchedule } from './scrub-schedule.js';

export interface PrivacyWorker {
  /** Lets the batches in progress commit, hands their requests back, and resolves when idle. */
  stop(): Promise<void>;
}

export interface PrivacyWorkerOptions {
  /** Lease owner name; unique per worker by default. */
  readonly owner?: string;
  readonly afterBatch?: ProcessPrivacyRequestsInput['afterBatch'];
}

/** Pauses after a failed pass: short enough to resume soon after an outage, long enough not to spin. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 2_000;

/**
 * Carries out privacy requests (docs/design.md, Privacy API): WORKER_CONCURRENCY lanes each claim up
 * to WORKER_CLAIM_SIZE pending requests with leases in one statement and erase them together
 * (processPrivacyRequests); a lane loops without sleeping while there is work,
 * and otherwise waits for the in-process signal or WORKER_POLL_INTERVAL_MS. Housekeeping (expired
 * exports, requests past retention, deny entries of expired tokens, retired signing keys) runs once
 * a minute, in bounded batches. Erased bytes are scrubbed from SQLite's files within about a
 * second of completion, busy or idle, and at most once a second (by this process's monotonic
 * clock, not the injected one: it paces disk work); while another process keeps the WAL from being
 * emptied, the scrub is tried again each second until it is. With PRIVACY_COMPACT on,
 * housekeeping inside the window also rewrites the tables an erasure or purge left deleted rows in.
 * A pass that fails pauses its lane for 250 ms, growing to 2 s while failures go on; a database
 * outage is logged once (deps.outages), and a claim's batches wait it out and resume where the
 * last commit left them, so nothing needs a restart.
 */
export function startPrivacyWorker(deps: ServiceDeps, options: PrivacyWorkerOptions = {}): PrivacyWorker {
  const { config, logger } = deps;
  const owner = options.owner ?? `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const signal = deps.privacyWork ?? createWorkSignal();
  const abort = new AbortController();
  const scrubs = createScrubSchedule(deps);
  const housekeeping = createPrivacyHousekeeping(deps, scrubs);
  /** The requests this process's lanes are carrying out. */
  const inProgress = new Set<string>();

  /** One pass: housekeeping, then a claim and its batches; whether there was work. */
  const iterate = async (): Promise<boolean> => {
    await housekeeping();
    const claimed = await claimPrivacyRequests(deps, { owner, limit: config.worker.claimSize });
    if (claimed.length === 0) return false;
    // The lanes share one lease owner, so fencing cannot tell them apart: a request whose lease ran
    // out while its lane waited out an outage can be claimed again here, and stays with that lane.
    const requests = claimed.filter((r) => !inProgress.has(r.id));
    for (const r of requests) inProgress.add(r.id);
    try {
      await processTraced(deps.tracer, requests, reportOutcome(deps, scrubs), (onOutcome) =>
        processPrivacyRequests(deps, {
          requests,
          owner,
          signal: abort.signal,
          onOutcome,
          ...(options.afterBatch ? { afterBatch: options.afterBatch } : {}),
        }),
      );
    } finally {
      for (const r of requests) inProgress.delete(r.id);
    }
    return true;
  };

  const lane = async () => {
    const backoff = createRetryBackoff({ firstMs: RETRY_FIRST_MS, maxMs: RETRY_MAX_MS });
    while (!abort.signal.aborted) {
      try {
        const busy = await iterate();
        deps.outages.up('database');
        backoff.reset();
        // Idle or not, at most one scrub a second: a queue that empties many times a second would
        // otherwise checkpoint each time, and the checkpoint's disk flushes hold up every commit
        // behind it; new work wakes the lane before the scrub is due.
        await scrubs.scrubIfDue();
        if (busy) continue;
        await signal.wait(scrubs.idleWait(config.worker.pollIntervalMs), abort.signal);
      } catch (err) {
        reportFailure(deps, err, 'privacy worker iteration failed');
        // Whatever failed is tried again after a pause that grows while failures go on, so an
        // outage costs a few calls a second, not a loop; a claim's batches that failed resume from
        // what committed (processPrivacyRequests).
        await createWorkSignal().wait(backoff.next(), abort.signal);
      }
    }
  };

  logger.info({ owner, concurrency: config.worker.concurrency }, 'privacy worker started');
  const lanes = Array.from({ length: config.worker.concurrency }, () => lane());
  return {
    async stop() {
      abort.abort();
      await Promise.all(lanes);
      // A scrub that fails now is owed to the next start, which scrubs first.
      await scrubs.settle().catch((err) => reportFailure(deps, err, 'freed pages not scrubbed'));
      logger.info({ owner }, 'privacy worker stopped');
    },
  };
}

/** Logs a request's outcome as soon as it is known, not when the rest of its claim is done. */
function reportOutcome(
  deps: ServiceDeps,
  scrubs: ScrubSchedule,
): NonNullable<ProcessPrivacyRequestsInput['onOutcome']> {
  return (request, outcome) => {
    if (outcome.status === 'completed') {
      deps.logger.info(
        { privacyRequestId: request.id, requestType: request.type, receipt: outcome.receipt },
        'privacy request completed',
      );
      if (request.type === 'forget') scrubs.owe();
      return;
    }
    deps.logger.warn({ privacyRequestId: request.id, outcome: outcome.status }, 'privacy request left');
  };
}
