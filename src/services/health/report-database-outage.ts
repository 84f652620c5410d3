import { isDatabaseUnavailable } from '../../store/driver-errors.js';
import type { ServiceDeps } from '../deps.js';

/** How often a database found unavailable is asked again, to log the end of its outage. */
const RECOVERY_PROBE_MS = 1000;

/**
 * Tells the outage log (deps.outages) that the database could not serve a call, when `err` says
 * so, and returns whether it did. The first such failure opens the outage and starts a probe
 * that pings the database every second until it answers, which closes the outage: its end is
 * logged soon after the database is back, whether or not traffic or readiness probes arrive, and
 * the calls that succeed meanwhile pay nothing for it.
 */
export function reportDatabaseOutage(deps: Pick<ServiceDeps, 'store' | 'outages'>, err: unknown): boolean {
  if (!isDatabaseUnavailable(err)) return false;
  openDatabaseOutage(deps, err);
  return true;
}

/**
 * Opens (or goes on counting) the database's outage for a failure the caller has already judged
 * to be one, such as a write that did not complete in time; the probe closes it.
 */
export function openDatabaseOutage(deps: Pick<ServiceDeps, 'store' | 'outages'>, err: unknown): void {
  const ongoing = deps.outages.isDown('database');
  deps.outages.down('database', err);
  if (!ongoing) awaitRecovery(deps);
}

function awaitRecovery({ store, outages }: Pick<ServiceDeps, 'store' | 'outages'>): void {
  const probe = () => {
    // Closed already (by a readiness check that found the database answering).
    if (!outages.isDown('database')) return;
    store.ping().then(
      () => outages.up('database'),
      (err: unknown) => {
        // Anything else (the store was closed, say) is not an outage a later ping can end.
        if (isDatabaseUnavailable(err)) later();
      },
    );
  };
  const later = () => setTimeout(probe, RECOVERY_PROBE_MS).unref();
  later();
}
