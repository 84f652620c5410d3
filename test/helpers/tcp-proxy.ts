import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before } from 'node:test';

/**
 * A loopback TCP proxy in front of a real PostgreSQL or Redis, so a test can make the dependency
 * go away (`refuse`: every connection reset, new ones reset on accept) or stall (`stall`: bytes
 * held in both directions, new connections accepted but not forwarded) and come back (`pass`),
 * without touching the shared server behind it.
 */
type ProxyMode = 'pass' | 'refuse' | 'stall';

export interface TcpProxy {
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  url(url: string): string;
  setMode(mode: ProxyMode): void;
  /** Connections currently open through the proxy. */
  connections(): number;
  close(): Promise<void>;
}

interface Pair {
  readonly client: Socket;
  upstream: Socket | null;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  const pairs = new Set<Pair>();

  const drop = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  const forward = (pair: Pair) => {
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('error', () => drop(pair));
    upstream.on('close', () => drop(pair));
    flow(pair);
  };

  const flow = (pair: Pair) => {
    if (!pair.upstream) return;
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
    pair.client.resume();
    pair.upstream.resume();
  };

  /** Unpiped as well as paused: a pipe resumes its source when the destination drains. */
  const hold = (pair: Pair) => {
    if (pair.upstream) {
      pair.client.unpipe(pair.upstream);
      pair.upstream.unpipe(pair.client);
      pair.upstream.pause();
    }
    pair.client.pause();
  };

  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    const pair: Pair = { client, upstream: null };
    client.on('error', () => drop(pair));
    client.on('close', () => drop(pair));
    if (mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    pairs.add(pair);
    if (mode === 'pass') forward(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy has no port');

  return {
    port: address.port,
    url(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(address.port);
      return parsed.toString();
    },
    setMode(next) {
      mode = next;
      for (const pair of [...pairs]) {
        if (next === 'refuse') {
          pair.client.resetAndDestroy();
          drop(pair);
        } else if (next === 'stall') {
          hold(pair);
        } else if (pair.upstream) {
          flow(pair);
        } else {
          forward(pair);
        }
      }
    },
    connections: () => pairs.size,
    async close() {
      for (const pair of [...pairs]) drop(pair);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * For a suite: a proxy in front of the server `url` names, started before its tests and closed
 * after them, and every exception left uncaught meanwhile, which a dependency fault must not
 * cause.
 */
export function proxyDuringSuite(url: string): { proxy(): TcpProxy; readonly uncaught: unknown[] } {
  let proxy: TcpProxy | undefined;
  const uncaught: unknown[] = [];
  const record = (err: unknown) => uncaught.push(err);
  before(async () => {
    const { hostname, port } = new URL(url);
    proxy = await startTcpProxy({ host: hostname, port: Number(port || 5432) });
    process.on('uncaughtException', record);
  });
  after(async () => {
    process.off('uncaughtException', record);
    await proxy?.close();
  });
  return {
    proxy() {
      if (!proxy) throw new Error('the proxy starts before the suite’s tests');
      return proxy;
    },
    uncaught,
  };
}
