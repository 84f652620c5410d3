import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { type MetricsServer, startMetricsServer } from '../../http/metrics-server.js';
import { createLogger } from '../../logger.js';
import type { Runtime } from '../../runtime.js';
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
  let started: Runtime | null = null;
  let metricsServer: MetricsServer | null = null;
  const workers: { stop(): Promise<void> }[] = [];
  // Registered first, so that a signal at any point of the start ends the command cleanly.
  const shutdown = onShutdownSignal(logger, config.shutdownTimeoutMs, async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await metricsServer?.close();
    await started?.close();
  });
  // Waits for the database (and a schema it can serve) instead of exiting: a supervisor's restart
  // loop would only add load on a database coming back (start-when-reachable.ts).
  const runtime = await startWhenReachable(config, logger, createInstanceState(), () => shutdown.stopping);
  if (!runtime) return;
  // A signal that came while it started: the stop has run, or will, without this runtime.
  if (shutdown.stopping) return void (await runtime.close());
  started = runtime;
  // Before the workers: a metrics port that cannot be opened ends the command before any lane has
  // started, instead of leaving lanes running in a command that already failed.
  if (config.metrics) {
    const metrics = await startMetricsServer(runtime.deps.metrics, { ...config.metrics, logger }).catch(
      async (err) => {
        await runtime.close();
        throw err;
      },
    );
    if (shutdown.stopping) {
      await metrics.close();
      return void (await runtime.close());
    }
    metricsServer = metrics;
  }
  // The lanes never reject: every failure of theirs is logged and retried (src/worker), so the
  // process lives through a database outage and only a signal ends it.
  if (!shutdown.stopping) workers.push(startPrivacyWorker(runtime.deps), startWebhookWorker(runtime.deps));
}

export function registerWorkerCommand(program: Command, io: CliIo): void {
  program
    .command('worker')
    .description('run only the workers: erasure and export of privacy requests, webhook deliveries')
    .addHelpText('after', environmentHelp)
    .action(() => runWorker(io));
}
