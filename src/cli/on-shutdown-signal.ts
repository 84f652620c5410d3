import type { Logger } from 'pino';

/**
 * On the first SIGTERM or SIGINT, runs `drain` at once (readiness starts failing), waits what it
 * returns (SHUTDOWN_DELAY_MS: the server still accepts and serves meanwhile, so a load balancer
 * takes it out before any connection is refused), then runs `stop` (stop accepting, finish what
 * is in flight, close the runtime) and sets the exit code; a stop that takes longer than
 * `timeoutMs` ends the process with 1. Returns whether a stop has begun, for work that should not
 * start once it has.
 */
export function onShutdownSignal(
  logger: Logger,
  timeoutMs: number,
  stop: () => Promise<void>,
  drain: () => number = () => 0,
): { readonly stopping: boolean } {
  const state = { stopping: false };
  const shutdown = async (signal: string) => {
    if (state.stopping) return;
    state.stopping = true;
    const delayMs = drain();
    logger.info({ delayMs, signal }, 'shutting down');
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    try {
      await stop();
      process.exitCode = 0;
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exitCode = 1;
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  return state;
}
