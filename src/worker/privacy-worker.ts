import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { isInWindow } from '../domain/compaction-window.js';
import { purgeExpiredTokenState } from '../services/auth/purge-expired-token-state.js';
import type { ServiceDeps } from '../services/deps.js';
import { createRetryBackoff } from '../services/health/create-retry-backoff.js';
import { reportFailure } from '../services/health/report-failure.js';
import { claimPrivacyRequests } from '../services/privacy/claim-privacy-request.js';
import { compactPrivacyTables } from '../services/privacy/compact-privacy-tables.js';
import {
  type ProcessPrivacyRequestsInput,
  processPrivacyRequests,
} from '../services/privacy/process-privacy-request.js';
import { purgePrivacyData } from '../services/privacy/purge-privacy-data.js';
import { scrubFreedPages } from '../services/privacy/scrub-freed-pages.js';
import { createWorkSignal } from '../services/privacy/work-signal.js';

export interface PrivacyWorker {
  /** Lets the batches in progress commit, hands their requests back, and resolves when idle. */
  stop(): Promise<void>;
}

export interface PrivacyWorkerOptions {
  /** Lease owner name; unique per worker by default. */
  readonly owner?: string;
  readonly afterBatch?: ProcessPrivacyRequestsInput['afterBatch'];
}

const HOUSEKEEPING_INTERVAL_MS = 60_000;
/** Pauses after a failed pass: short enough to resume soon after an outage, long enough not to spin. */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 2_000;
/** Erased rows must leave the WAL soon, but one checkpoint per request would cap throughput. */
const SCRUB_INTERVAL_MS = 1_000;

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
  let nextHousekeepingAt = 0;
  // Owed from the start: a process that stopped between an erasure's commit and its scrub (a
  // crash, or another process's read) left the erased bytes in the WAL.
  let scrubOwed = true;
  let lastScrubAt = Number.NEGATIVE_INFINITY;
  let scrubsRefused = 0;
  /** The requests this process's lanes are carrying out. */
  const inProgress = new Set<string>();

  const scrub = async () => {
    scrubOwed = false;
    lastScrubAt = performance.now();
    let scrubbed = false;
    try {
      scrubbed = await scrubFreedPages(deps);
    } finally {
      // Still owed after a failure too (the lane logs it): the erased bytes are still on disk.
      if (!scrubbed) scrubOwed = true;
    }
    if (scrubbed) {
      if (scrubsRefused > 0) logger.info({ attempts: scrubsRefused + 1 }, 'freed pages scrubbed');
      scrubsRefused = 0;
      return;
    }
    // Another process holds a read or write open on the database: try again a second later.
    if (scrubsRefused++ === 0)
      logger.warn('freed pages not scrubbed yet: another connection holds the WAL open');
  };

  const scrubDueIn = () => lastScrubAt + SCRUB_INTERVAL_MS - performance.now();
  /** Until the poll, or sooner when a scrub is owed (one refused keeps being retried each second). */
  const idleWait = () =>
    scrubOwed
      ? Math.max(0, Math.min(config.worker.pollIntervalMs, scrubDueIn()))
      : config.worker.pollIntervalMs;

  const housekeeping = async () => {
    if (deps.clock() < nextHousekeepingAt) return;
    nextHousekeepingAt = deps.clock() + HOUSEKEEPING_INTERVAL_MS;
    let purged: Awaited<ReturnType<typeof purgePrivacyData>>;
    try {
      purged = await purgePrivacyData(deps);
    } catch (err) {
      // Its batches commit one by one: those before the failure deleted rows all the same.
      scrubOwed = true;
      throw err;
    }
    if (purged.exports > 0 || purged.requests > 0) {
      logger.info(purged, 'privacy data purged');
      scrubOwed = true;
    }
    const tokens = await purgeExpiredTokenState(deps);
    if (tokens.tokenDenials > 0 || tokens.signingKeys > 0) logger.info(tokens, 'expired token state purged');
    await compactIfDue();
  };

  /** The window is checked here first, so the database is not asked outside it. */
  const compactIfDue = async () => {
    const { mode, window } = config.privacy.compact;
    if (mode === 'off' || !isInWindow(window, deps.clock())) return;
    try {
      await compactPrivacyTables(deps, { trigger: mode });
    } catch (err) {
      // Not fatal: the owed mark is back, so a later housekeeping in the window tries again.
      const { message, code } = err as { message?: unknown; code?: unknown };
      logger.error({ err: { message, code } }, 'privacy table compaction failed');
    }
  };

  /** Logs a request's outcome as soon as it is known, not when the rest of its claim is done. */
  const report: NonNullable<ProcessPrivacyRequestsInput['onOutcome']> = (request, outcome) => {
    if (outcome.status === 'completed') {
      logger.info(
        { privacyRequestId: request.id, requestType: request.type, receipt: outcome.receipt },
        'privacy request completed',
      );
      if (request.type === 'forget') scrubOwed = true;
      return;
    }
    logger.warn({ privacyRequestId: request.id, outcome: outcome.status }, 'privacy request left');
  };

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
      await processPrivacyRequests(deps, {
        requests,
        owner,
        signal: abort.signal,
        onOutcome: report,
        ...(options.afterBatch ? { afterBatch: options.afterBatch } : {}),
      });
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
        if (busy) {
          if (scrubOwed && performance.now() - lastScrubAt >= SCRUB_INTERVAL_MS) await scrub();
          continue;
        }
        // Idle: scrub, but still at most once a second. A queue that empties many times a second
        // would otherwise checkpoint each time, and the checkpoint's disk flushes hold up every
        // commit behind it; new work wakes the lane before the scrub is due.
        if (scrubOwed && scrubDueIn() <= 0) await scrub();
        await signal.wait(idleWait(), abort.signal);
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
      if (scrubOwed) await scrub().catch((err) => reportFailure(deps, err, 'freed pages not scrubbed'));
      logger.info({ owner }, 'privacy worker stopped');
    },
  };
}
