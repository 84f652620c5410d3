import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { createLogger } from '../../logger.js';
import { createRuntime } from '../../runtime.js';
import { startPrivacyWorker } from '../../worker/privacy-worker.js';

/**
 * `rpa worker`: only the privacy worker, for separate worker processes at scale (run the API with
 * WORKER_ENABLED=false then). SIGTERM/SIGINT let the batches in progress commit and hand their
 * requests back before the process exits; a SIGKILL loses nothing either, the lease just has to
 * run out before another worker resumes.
 */
export async function runWorker(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const runtime = await createRuntime(config, { logger });
  const worker = startPrivacyWorker(runtime.deps);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    try {
      await worker.stop();
      await runtime.close();
      process.exitCode = 0;
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exitCode = 1;
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run only the privacy worker (erasure and export of privacy requests)')
    .action(runWorker);
}
