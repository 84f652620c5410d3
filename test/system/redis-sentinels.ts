import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, SHARED_PORTS } from './free-port.js';

/** The master name the Sentinels monitor. */
const SENTINEL_MASTER = 'fleet';
/** How long a primary may not answer before a Sentinel counts it down (kept low for the suite). */
const DOWN_AFTER_MS = 1_000;

export interface RedisWithSentinels {
  /** The primary at the start, as a `redis://` URL. */
  readonly primaryUrl: string;
  /** `host:port` of each Sentinel, comma-separated. */
  readonly sentinels: string;
  readonly master: string;
  /** SIGKILL to the primary: its data and connections are gone at once. */
  killPrimary(): void;
  /** Resolves with when the Sentinels name another primary than the first, or null past `boundMs`. */
  waitForPromotion(boundMs: number): Promise<number | null>;
  destroy(): Promise<void>;
}

/**
 * A Redis primary, one replica and three Sentinels of the suite's own, on free ports, without
 * persistence; resolves once the replica is in sync and the Sentinels know each other and it, so
 * a failover can happen. Every process is killed when the suite's process exits.
 */
export async function startRedisWithSentinels(): Promise<RedisWithSentinels> {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-system-sentinel-'));
  const children: ChildProcess[] = [];
  const killAll = () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  };
  process.once('exit', killAll);
  const ports = await distinctFreePorts(5);
  const [primaryPort, replicaPort, ...sentinelPorts] = ports as [number, number, ...number[]];
  const server = (port: number, extra: readonly string[]) => [
    ...['--port', String(port), '--bind', '127.0.0.1'],
    ...['--save', '', '--appendonly', 'no', '--dir', dir, ...extra],
  ];
  const start = async (args: readonly string[], ready: RegExp) => {
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    await untilOutput(child, ready);
  };
  const destroy = async () => {
    process.off('exit', killAll);
    killAll();
    await Promise.all(
      children.map((c) =>
        c.exitCode === null && c.signalCode === null
          ? new Promise((resolve) => c.once('exit', resolve))
          : null,
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await start(server(primaryPort, []), /Ready to accept connections/);
    await start(
      server(replicaPort, ['--replicaof', '127.0.0.1', String(primaryPort)]),
      /MASTER <-> REPLICA sync: Finished with success/,
    );
    for (const port of sentinelPorts) {
      // Sentinel rewrites its configuration file, so each has one of its own.
      const file = join(dir, `sentinel-${port}.conf`);
      writeFileSync(file, sentinelConfig({ dir, port, primaryPort }));
      await start([file, '--sentinel'], /\+monitor master/);
    }
    await untilSentinelsAgree(sentinelPorts);
  } catch (err) {
    await destroy();
    throw err;
  }

  const primary = children[0] as ChildProcess;
  return {
    primaryUrl: `redis://127.0.0.1:${primaryPort}`,
    sentinels: sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','),
    master: SENTINEL_MASTER,
    killPrimary: () => primary.kill('SIGKILL'),
    async waitForPromotion(boundMs) {
      const until = Date.now() + boundMs;
      while (Date.now() < until) {
        const addr = await ask(sentinelPorts[0] as number, ['get-master-addr-by-name', SENTINEL_MASTER]);
        if (Array.isArray(addr) && Number(addr[1]) !== primaryPort) return Date.now();
        await sleep(100);
      }
      return null;
    },
    destroy,
  };
}

function sentinelConfig(options: { dir: string; port: number; primaryPort: number }): string {
  return [
    `port ${options.port}`,
    'bind 127.0.0.1',
    `dir ${options.dir}`,
    `sentinel monitor ${SENTINEL_MASTER} 127.0.0.1 ${options.primaryPort} 2`,
    `sentinel down-after-milliseconds ${SENTINEL_MASTER} ${DOWN_AFTER_MS}`,
    `sentinel failover-timeout ${SENTINEL_MASTER} 5000`,
    '',
  ].join('\n');
}

/** Waits until each Sentinel sees the replica and the two other Sentinels. */
async function untilSentinelsAgree(ports: readonly number[]) {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const views = await Promise.all(ports.map((p) => ask(p, ['master', SENTINEL_MASTER])));
    const agree = views.every((v) => {
      if (!Array.isArray(v)) return false;
      const field = (name: string) => Number(v[v.indexOf(name) + 1]);
      return field('num-slaves') === 1 && field('num-other-sentinels') === ports.length - 1;
    });
    if (agree) return;
    await sleep(200);
  }
  throw new Error('the Sentinels did not find the replica and each other within 20 s');
}

/** One `SENTINEL …` command; null when the Sentinel does not answer. */
async function ask(port: number, args: readonly string[]): Promise<unknown> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  client.on('error', () => {});
  try {
    await client.connect();
    return await client.call('SENTINEL', ...args);
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}

async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) {
    const port = await freePort();
    if (!SHARED_PORTS.includes(port)) ports.add(port);
  }
  return [...ports];
}

function untilOutput(child: ChildProcess, pattern: RegExp): Promise<void> {
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server: no ${pattern} within 20 s: ${out}`)),
      20_000,
    );
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (pattern.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}): ${out}`));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
