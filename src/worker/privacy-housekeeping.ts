import { isInWindow } from '../domain/compaction-window.js';
import { purgeExpiredTokenState } from '../services/auth/purge-expired-token-state.js';
import type { ServiceDeps } from '../services/deps.js';
import { purgeIdempotencyKeys } from '../services/idempotency/purge-idempotency-keys.js';
import { compactPrivacyTables } from '../services/privacy/compact-privacy-tables.js';
import { purgePrivacyData } from '../services/privacy/purge-privacy-data.js';
import type { ScrubSchedule } from './scrub-schedule.js';

const HOUSEKEEPING_INTERVAL_MS = 60_000;

/**
 * The privacy worker's housekeeping (startPrivacyWorker), at most once a minute: expired exports,
 * requests past retention, deny entries of expired tokens, retired signing keys, Idempotency-Keys
 * past their 24 hours, and, with
 * PRIVACY_COMPACT on and inside its window, the rewrite of tables left with deleted rows.
 */
export function createPrivacyHousekeeping(deps: ServiceDeps, scrubs: ScrubSchedule): () => Promise<void> {
  const { config, logger } = deps;
  let nextHousekeepingAt = 0;

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

  return async () => {
    if (deps.clock() < nextHousekeepingAt) return;
    nextHousekeepingAt = deps.clock() + HOUSEKEEPING_INTERVAL_MS;
    let purged: Awaited<ReturnType<typeof purgePrivacyData>>;
    try {
      purged = await purgePrivacyData(deps);
    } catch (err) {
      // Its batches commit one by one: those before the failure deleted rows all the same.
      scrubs.owe();
      throw err;
    }
    if (purged.exports > 0 || purged.requests > 0) {
      logger.info(purged, 'privacy data purged');
      scrubs.owe();
    }
    const tokens = await purgeExpiredTokenState(deps);
    if (tokens.tokenDenials > 0 || tokens.signingKeys > 0) logger.info(tokens, 'expired token state purged');
    const idempotencyKeys = await purgeIdempotencyKeys(deps);
    if (idempotencyKeys > 0) logger.info({ idempotencyKeys }, 'expired idempotency keys purged');
    await compactIfDue();
  };
}
