import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, SHARED_PORTS } from './free-port.js';

export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
}

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** SIGKILL: the data held in memory is gone. */
  kill(): Promise<void>;
  /** Starts an empty server on the same port. */
  start(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing is answered until `resume`. */
  pause(): void;
  resume(): void;
  destroy(): Promise<void>;
}

/**
 * Starts `redis-server args` (a server, or a Sentinel with `--sentinel`), resolving with it once
 * its output says `ready`; `spawned` learns of the process at once, so that it can be killed even
 * if it never gets there.
 */
export async function startRedisServer(
  args: readonly string[],
  ready: RegExp,
  spawned: (child: ChildProcess) => void = () => {},
): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  spawned(child);
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.resume();
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  return child;
}

/**
 * A disposable Redis of the suite's own, without persistence (`--save ''`, no AOF), so a restart
 * comes back empty, as after losing a cache node.
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  if (SHARED_PORTS.includes(port)) throw new Error(`refusing the shared port ${port}`);
  const dir = mkdtempSync(join(tmpdir(), 'rpa-system-redis-'));
  let server: ChildProcess | null = null;
  const killOnExit = () => server?.kill('SIGKILL');
  process.once('exit', killOnExit);

  const start = async () => {
    await startRedisServer(
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      /Ready to accept connections/,
      (child) => {
        server = child;
      },
    );
  };
  const kill = async () => {
    const child = server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  };

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    pause: () => server?.kill('SIGSTOP'),
    resume: () => server?.kill('SIGCONT'),
    async destroy() {
      process.off('exit', killOnExit);
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
