import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { buildAdminServer } from '../../http/admin/build-admin-server.js';
import { buildServer } from '../../http/build-server.js';
import { type MetricsServer, startMetricsServer } from '../../http/metrics-server.js';
import { createLogger } from '../../logger.js';
import { createRuntime, migrateDatabase } from '../../runtime.js';
import { startPrivacyWorker } from '../../worker/privacy-worker.js';
import { startWebhookWorker } from '../../worker/webhook-worker.js';
import type { CliIo } from '../cli-io.js';
import { environmentHelp, jsonOption } from '../command-options.js';
import { onShutdownSignal } from '../on-shutdown-signal.js';

/**
 * `rpa serve`: migrations, HTTP server and (unless WORKER_ENABLED=false) the in-process privacy
 * and webhook workers. SIGTERM/SIGINT stop accepting connections, finish in-flight requests, then exit.
 */
async function serve(io: CliIo): Promise<void> {
  const config = loadConfig(io.env);
  const logger = createLogger(config.logLevel);
  const runtime = await createRuntime(config, { logger });
  const app = await buildServer(runtime.http);
  const admin = config.admin
    ? await buildAdminServer(runtime.deps, { throttle: runtime.http.authThrottle })
    : null;
  const background: { stop(): Promise<void> }[] = [];
  let metrics: MetricsServer | null = null;

  const shutdown = onShutdownSignal(logger, config.shutdownTimeoutMs, async () => {
    await app.close();
    await admin?.close();
    for (const b of background) await b.stop();
    await metrics?.close();
    await runtime.close();
  });

  await app.listen({ port: config.port, host: config.host });
  if (admin && config.admin && !shutdown.stopping) {
    await admin.listen({ port: config.admin.port, host: config.admin.host });
    const { address, port } = admin.server.address() as AddressInfo;
    logger.info({ address, port }, 'serving the admin API');
  }
  if (config.metrics && !shutdown.stopping)
    metrics = await startMetricsServer(runtime.deps.metrics, { ...config.metrics, logger });
  // Started once listening, so a port that cannot be bound does not leave a worker running.
  if (config.worker.enabled && !shutdown.stopping)
    background.push(startPrivacyWorker(runtime.deps), startWebhookWorker(runtime.deps));
  logger.info({ database: runtime.deps.store.dialect, redis: runtime.deps.redis !== null }, 'serving');
}

export function registerServeCommands(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description(
      'apply migrations and serve the API (with the privacy and webhook workers in-process by default)',
    )
    .addHelpText('after', environmentHelp)
    .action(() => serve(io));
  program
    .command('migrate')
    .description('apply pending database migrations and exit')
    .addOption(jsonOption())
    .action(async (opts: { json?: boolean }) => {
      const r = await migrateDatabase(loadConfig(io.env));
      if (opts.json) io.stdout.write(`${JSON.stringify(r)}\n`);
      else io.stdout.write(r.applied.length ? `applied ${r.applied.join(', ')}\n` : 'up to date\n');
    });
}
