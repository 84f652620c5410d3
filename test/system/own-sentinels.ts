import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, SHARED_PORTS } from './free-port.js';
import { startRedisServer } from './own-redis.js';

const MASTER_NAME = 'rpa-primary';

export interface OwnSentinels {
  /** `REDIS_SENTINELS`: the three Sentinels' `host:port`, comma-separated. */
  readonly sentinels: string;
  readonly masterName: string;
  readonly primaryPort: number;
  readonly replicaPort: number;
  /** SIGKILL of the primary: what it held in memory and had not replicated is gone. */
  killPrimary(): Promise<void>;
  /** Resolves with the time the first Sentinel announced `+switch-master`. */
  readonly switched: Promise<number>;
  destroy(): Promise<void>;
}

async function port(): Promise<number> {
  const p = await freePort();
  if (SHARED_PORTS.includes(p)) throw new Error(`refusing the shared port ${p}`);
  return p;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Polls `check` every 200 ms until it holds, or throws after `ms`. */
async function until(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * A Redis primary, one replica and three Sentinels of the suite's own, none persisting, in a
 * temporary directory: a primary is judged down after one second and replaced at once. Resolves
 * once the replica is in sync and every Sentinel knows the replica and the other two, so that a
 * failover can be agreed on.
 */
export async function startOwnSentinels(): Promise<OwnSentinels> {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-system-sentinel-'));
  const children: ChildProcess[] = [];
  const killOnExit = () => {
    for (const c of children) c.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const common = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const ready = /Ready to accept connections/;
  const primaryPort = await port();
  const replicaPort = await port();
  const primary = await startRedisServer(['--port', String(primaryPort), ...common], ready);
  children.push(primary);
  const replica = await startRedisServer(
    ['--port', String(replicaPort), ...common, '--replicaof', '127.0.0.1', String(primaryPort)],
    ready,
  );
  children.push(replica);

  const sentinelPorts = [await port(), await port(), await port()];
  for (const p of sentinelPorts) {
    const conf = join(dir, `sentinel-${p}.conf`);
    writeFileSync(
      conf,
      [
        `port ${p}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${primaryPort} 2`,
        `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
        `sentinel failover-timeout ${MASTER_NAME} 5000`,
        `sentinel parallel-syncs ${MASTER_NAME} 1`,
        '',
      ].join('\n'),
    );
    children.push(await startRedisServer([conf, '--sentinel'], /Sentinel ID is|monitor master/));
  }

  const probes = sentinelPorts.map((p) => new Redis({ port: p, host: '127.0.0.1', lazyConnect: true }));
  for (const probe of probes) probe.on('error', () => {});
  const replicaProbe = new Redis({ port: replicaPort, host: '127.0.0.1', lazyConnect: true });
  replicaProbe.on('error', () => {});
  try {
    await until('the replica to be in sync', 20_000, async () =>
      /master_link_status:up/.test(await replicaProbe.info('replication')),
    );
    await until('the Sentinels to know the replica and one another', 30_000, async () => {
      for (const probe of probes) {
        const replicas = (await probe.call('SENTINEL', 'REPLICAS', MASTER_NAME)) as unknown[];
        const others = (await probe.call('SENTINEL', 'SENTINELS', MASTER_NAME)) as unknown[];
        if (replicas.length < 1 || others.length < 2) return false;
      }
      return true;
    });
  } finally {
    replicaProbe.disconnect();
    for (const probe of probes) probe.disconnect();
  }

  const watcher = new Redis({ port: sentinelPorts[0] as number, host: '127.0.0.1' });
  watcher.on('error', () => {});
  const switched = new Promise<number>((resolve) => {
    watcher.on('message', (channel: string) => {
      if (channel === '+switch-master') resolve(Date.now());
    });
  });
  await watcher.subscribe('+switch-master');

  return {
    sentinels: sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','),
    masterName: MASTER_NAME,
    primaryPort,
    replicaPort,
    killPrimary: () => kill(primary),
    switched,
    async destroy() {
      watcher.disconnect();
      process.off('exit', killOnExit);
      await Promise.all(children.map(kill));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
