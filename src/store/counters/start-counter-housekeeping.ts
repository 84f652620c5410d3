/** How often ended windows (mostly failed-login counters of passing addresses) are deleted. */
const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;

/** What the in-process and SQL stores are made with. */
export interface CounterStoreOptions {
  /** Delete ended windows now and then, by this clock; a store without it keeps them. */
  readonly housekeeping?: { readonly clock: () => number };
}

/**
 * Runs `sweep` (delete the windows ended by then) every HOUSEKEEPING_INTERVAL_MS when the options
 * ask for housekeeping; returns what stops it. The timer does not keep the process alive.
 */
export function startCounterHousekeeping(
  options: CounterStoreOptions,
  sweep: (now: number) => void,
): () => void {
  if (!options.housekeeping) return () => {};
  const { clock } = options.housekeeping;
  const timer = setInterval(() => sweep(clock()), HOUSEKEEPING_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
