import { performance } from 'node:perf_hooks';
import type { ServiceDeps } from '../services/deps.js';
import { scrubFreedPages } from '../services/privacy/scrub-freed-pages.js';

/** Erased rows must leave the WAL soon, but one checkpoint per request would cap throughput. */
const SCRUB_INTERVAL_MS = 1_000;

/**
 * When the privacy worker scrubs erased bytes from SQLite's files (startPrivacyWorker): within
 * about a second of an erasure or purge, and at most once a second, by this process's monotonic
 * clock, not the injected one, since it paces disk work.
 */
export interface ScrubSchedule {
  /** Rows were deleted: their bytes are owed a scrub. */
  owe(): void;
  /** Scrubs when one is owed and the last was at least a second ago. */
  scrubIfDue(): Promise<void>;
  /** How long an idle lane may wait: until the poll, or sooner when a scrub is owed. */
  idleWait(pollIntervalMs: number): number;
  /** Scrubs whatever is still owed, however recent the last scrub (a stopping worker). */
  settle(): Promise<void>;
}

export function createScrubSchedule(deps: ServiceDeps): ScrubSchedule {
  // Owed from the start: a process that stopped between an erasure's commit and its scrub (a
  // crash, or another process's read) left the erased bytes in the WAL.
  let owed = true;
  let lastScrubAt = Number.NEGATIVE_INFINITY;
  let refused = 0;

  const scrub = async () => {
    owed = false;
    lastScrubAt = performance.now();
    let scrubbed = false;
    try {
      scrubbed = await scrubFreedPages(deps);
    } finally {
      // Still owed after a failure too (the lane logs it): the erased bytes are still on disk.
      if (!scrubbed) owed = true;
    }
    if (scrubbed) {
      if (refused > 0) deps.logger.info({ attempts: refused + 1 }, 'freed pages scrubbed');
      refused = 0;
      return;
    }
    // Another process holds a read or write open on the database: try again a second later.
    if (refused++ === 0)
      deps.logger.warn('freed pages not scrubbed yet: another connection holds the WAL open');
  };

  const dueIn = () => lastScrubAt + SCRUB_INTERVAL_MS - performance.now();
  return {
    owe() {
      owed = true;
    },
    async scrubIfDue() {
      if (owed && dueIn() <= 0) await scrub();
    },
    // A refused scrub stays owed, so it is retried each second.
    idleWait: (pollIntervalMs) => (owed ? Math.max(0, Math.min(pollIntervalMs, dueIn())) : pollIntervalMs),
    async settle() {
      if (owed) await scrub();
    },
  };
}
