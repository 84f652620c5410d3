import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { type Config, loadConfig } from '../../config.js';
import { buildAdminServer } from '../../http/admin/build-admin-server.js';
import { buildFrontServer, type FrontServer } from '../../http/build-front-server.js';
import { buildServer } from '../../http/build-server.js';
import { type MetricsServer, startMetricsServer } from '../../http/metrics-server.js';
import { createLogger } from '../../logger.js';
import { migrateDatabase, type Runtime } from '../../runtime.js';
import { createInstanceState, type InstanceState } from '../../services/health/instance-state.js';
import { startPrivacyWorker } from '../../worker/privacy-worker.js';
import { startWebhookWorker } from '../../worker/webhook-worker.js';
import type { CliIo } from '../cli-io.js';
import { environmentHelp, jsonOption } from '../command-options.js';
import { onShutdownSignal } from '../on-shutdown-signal.js';
import { startWhenReachable } from '../start-when-reachable.js';

interface Running {
  readonly logger: Logger;
  runtime: Runtime | null;
  admin: FastifyInstance | null;
  metrics: MetricsServer | null;
  readonly background: { stop(): Promise<void> }[];
}

/**
 * `rpa serve`: migrations, HTTP server and (unless WORKER_ENABLED=false) the in-process privacy
 * and webhook workers. It listens at once and starts when the database can serve it
 * (start-when-reachable.ts), answering 503 until then (build-front-server.ts). SIGTERM/SIGINT fail
 * readiness for SHUTDOWN_DELAY_MS while it still serves, then stop accepting connections, finish
 * in-flight requests and exit (docs/operations.md, Running at scale).
 */
async function serve(io: CliIo): Promise<void> {
  const config = loadConfig(io.env);
  const logger = createLogger(config.logLevel);
  const instance = createInstanceState();
  const front = buildFrontServer({ config, logger }, instance);
  const running: Running = { logger, runtime: null, admin: null, metrics: null, background: [] };
  // Once: a start that failed stops everything, and a signal after that must not close it again.
  let stopped: Promise<void> | null = null;
  const stopAll = () =>
    (stopped ??= (async () => {
      await front.close();
      await running.admin?.close();
      for (const b of running.background) await b.stop();
      await running.metrics?.close();
      await running.runtime?.close();
    })());
  const shutdown = onShutdownSignal(logger, config.shutdownTimeoutMs, stopAll, () => {
    const serving = instance.phase === 'serving';
    instance.phase = 'draining';
    return serving ? config.shutdownDelayMs : 0;
  });

  await front.listen({ port: config.port, host: config.host });
  try {
    await startServing(config, { front, instance, running, stopping: () => shutdown.stopping });
  } catch (err) {
    // An open listener would keep the process alive after the command failed.
    if (!shutdown.stopping) await stopAll().catch(() => {});
    throw err;
  }
}

interface Starting {
  readonly front: FrontServer;
  readonly instance: InstanceState;
  readonly running: Running;
  readonly stopping: () => boolean;
}

/** Waits for the runtime, hands the built application to the listener, then starts the rest. */
async function startServing(config: Config, { front, instance, running, stopping }: Starting): Promise<void> {
  const { logger } = running;
  const runtime = await startWhenReachable(config, logger, instance, stopping);
  if (!runtime) return;
  // A signal that came while it started: the stop has run, or will, without this runtime.
  if (stopping()) return void (await runtime.close());
  running.runtime = runtime;
  const app = await buildServer(runtime.http, { instance, serverFactory: front.serverFactory });
  // Built before the API serves: compiling its routes holds the event loop for a while, which the
  // API's overload bound would read as a backlog and shed calls for (src/http/steps/shed-overload.ts).
  running.admin = config.admin
    ? await buildAdminServer(runtime.deps, { throttle: runtime.http.authThrottle })
    : null;
  await running.admin?.ready();
  await app.ready();
  if (stopping()) {
    await running.admin?.close();
    return void (await app.close());
  }
  front.serve(app);
  instance.phase = 'serving';
  await startSideListeners(config, runtime, running, stopping);
  logger.info({ database: runtime.deps.store.dialect, redis: runtime.deps.redis !== null }, 'serving');
}

/** The admin and metrics listeners and the in-process workers, once the API serves. */
async function startSideListeners(
  config: Config,
  runtime: Runtime,
  running: Running,
  stopping: () => boolean,
): Promise<void> {
  const { logger } = runtime.deps;
  const { admin } = running;
  if (admin && config.admin && !stopping()) {
    await admin.listen({ port: config.admin.port, host: config.admin.host });
    const { address, port } = admin.server.address() as AddressInfo;
    logger.info({ address, port }, 'serving the admin API');
  }
  if (config.metrics && !stopping())
    running.metrics = await startMetricsServer(runtime.deps.metrics, { ...config.metrics, logger });
  // Started once listening, so a port that cannot be bound does not leave a worker running.
  if (config.worker.enabled && !stopping())
    running.background.push(startPrivacyWorker(runtime.deps), startWebhookWorker(runtime.deps));
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
