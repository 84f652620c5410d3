import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { startMetricsServer } from '../../http/metrics-server.js';
import { createLogger } from '../../logger.js';
import { createInstanceState } from '../../services/health/instance-state.js';
import { startPrivacyWorker } from '../../worker/privacy-worker.js';
import { startWebhookWorker } from '../../worker/webhook-worker.js';
import type { CliIo } from '../cli-io.js';
import { environmentHelp } from '../command-options.js';
import { onShutdownSignal } from '../on-shutdown-signal.js';
import { startWhenReachable } from '../start-when-reachable.js';

/**
 * `rpa worker`: only the privacy and webhook workers, for separate worker processes at scale (run
 * the API with WORKER_ENABLED=false then). SIGTERM/SIGINT let the batches and attempts in progress
 * commit and hand their requests back before the process exits; a SIGKILL loses nothing either,
 * the leases just have to run out before another worker resumes.
 */
async function runWorker(io: CliIo): Promise<void> {
  const config = loadConfig(io.env);
  const logger = createLogger(config.logLevel);
  // Waits for the database (and a schema it can serve) instead of exiting: a supervisor's restart
  // loop would only add load on a database coming back (start-when-reachable.ts).
  let stopping = false;
  const stopSignal = () => {
    stopping = true;
  };
  process.once('SIGTERM', stopSignal);
  process.once('SIGINT', stopSignal);
  const runtime = await startWhenReachable(config, logger, createInstanceState(), () => stopping);
  process.off('SIGTERM', stopSignal);
  process.off('SIGINT', stopSignal);
  if (!runtime) return;
  if (stopping) return void (await runtime.close());
  // Before the workers: a metrics port that cannot be opened ends the command before any lane has
  // started, instead of leaving lanes running in a command that already failed.
  const metrics = config.metrics
    ? await startMetricsServer(runtime.deps.metrics, { ...config.metrics, logger }).catch(async (err) => {
        await runtime.close();
        throw err;
      })
    : null;
  // The lanes never reject: every failure of theirs is logged and retried (src/worker), so the
  // process lives through a database outage and only a signal ends it.
  const workers = [startPrivacyWorker(runtime.deps), startWebhookWorker(runtime.deps)];

  onShutdownSignal(logger, config.shutdownTimeoutMs, async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await metrics?.close();
    await runtime.close();
  });
}

export function registerWorkerCommand(program: Command, io: CliIo): void {
  program
    .command('worker')
    .description('run only the workers: erasure and export of privacy requests, webhook deliveries')
    .addHelpText('after', environmentHelp)
    .action(() => runWorker(io));
}
