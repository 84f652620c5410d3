import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Metrics } from '../services/metrics/create-metrics.js';

export interface MetricsServer {
  /** Where it listens (the port chosen by the system when METRICS_PORT=0). */
  readonly address: AddressInfo;
  close(): Promise<void>;
}

/**
 * `GET /metrics` in Prometheus's text format, on a listener of its own: kept off the public port,
 * so it needs no host check, no authentication and no limits, and a scrape never competes with
 * partners' calls for them. Anything else is 404.
 */
export async function startMetricsServer(
  metrics: Metrics,
  options: { port: number; host: string; logger: Logger },
): Promise<MetricsServer> {
  metrics.collectProcessMetrics();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    metrics.scrape().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        options.logger.error({ err }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('scrape failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  options.logger.info({ address: address.address, port: address.port }, 'serving metrics');
  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
