import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, SHARED_PORTS } from './free-port.js';

const execFileAsync = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';

/** The newest installed PostgreSQL's bin directory (Debian's layout), or null when none is. */
export function findPostgresBin(): string | null {
  if (!existsSync(PG_ROOT)) return null;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(PG_ROOT, versions[0], 'bin') : null;
}

export interface OwnPostgres {
  readonly port: number;
  readonly url: string;
  readonly maxConnections: number;
  /** `pg_ctl stop -m immediate`: every backend ends at once, as in a crash. */
  stopImmediately(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP to every process of the cluster: connections stay open and nothing is answered. */
  pause(): void;
  /** SIGCONT to the processes `pause` stopped. */
  resume(): void;
  /** Stops the cluster if it runs and removes its directory. */
  destroy(): void;
}

/**
 * A disposable PostgreSQL cluster of the suite's own: its own directory, port and socket
 * directory, so it can be stopped and starved without touching the shared server. initdb refuses
 * to run as root, so as root the cluster belongs to the `postgres` user.
 */
export async function startOwnPostgres(options: {
  bin: string;
  maxConnections: number;
}): Promise<OwnPostgres> {
  const port = await freePort();
  if (SHARED_PORTS.includes(port)) throw new Error(`refusing the shared port ${port}`);
  const dir = mkdtempSync(join(tmpdir(), 'rpa-system-pg-'));
  const data = join(dir, 'data');
  const sockets = join(dir, 'sockets');
  mkdirSync(sockets);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = postgresUser();
    for (const p of [dir, sockets]) chownSync(p, uid, gid);
  }
  const argv = (tool: string, args: readonly string[]): [string, string[]] => {
    const command = join(options.bin, tool);
    return asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, [...args]];
  };
  const run = (tool: string, args: readonly string[]) => {
    const r = spawnSync(...argv(tool, args), { encoding: 'utf8' });
    if (r.status !== 0)
      throw new Error(`${tool} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  };
  // While the load runs, pg_ctl must not block the event loop that sends and times the calls.
  const runAsync = async (tool: string, args: readonly string[]) => {
    await execFileAsync(...argv(tool, args));
  };
  const settings = [
    `-p ${port}`,
    `-k ${sockets}`,
    '-c listen_addresses=127.0.0.1',
    `-c max_connections=${options.maxConnections}`,
    // The operating system's cache outlives an immediate stop; only a machine crash needs fsync.
    '-c fsync=off',
  ].join(' ');
  const startArgs = ['start', '-w', '-t', '30', '-D', data, '-l', join(dir, 'server.log'), '-o', settings];
  const running = () => existsSync(join(data, 'postmaster.pid'));
  const postmasterPid = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);

  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  run('pg_ctl', startArgs);
  // A last resort if the suite's process dies before its `after` runs: the cluster must not outlive it.
  let paused: number[] = [];
  const resume = () => {
    for (const pid of paused.splice(0)) signal(pid, 'SIGCONT');
  };
  const killOnExit = () => {
    resume();
    try {
      if (running()) process.kill(postmasterPid(), 'SIGQUIT');
    } catch {
      // Already gone.
    }
  };
  process.once('exit', killOnExit);

  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    maxConnections: options.maxConnections,
    stopImmediately: () => runAsync('pg_ctl', ['stop', '-m', 'immediate', '-w', '-D', data]),
    start: () => runAsync('pg_ctl', startArgs),
    pause() {
      // The postmaster first, so it forks no new backend while the others are stopped.
      const postmaster = postmasterPid();
      paused = [postmaster, ...childrenOf(postmaster)];
      for (const pid of paused) signal(pid, 'SIGSTOP');
    },
    resume,
    destroy() {
      process.off('exit', killOnExit);
      resume();
      if (running()) {
        try {
          run('pg_ctl', ['stop', '-m', 'immediate', '-w', '-D', data]);
        } catch {
          killOnExit();
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function childrenOf(pid: number): number[] {
  const r = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
}

function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

function postgresUser(): { uid: number; gid: number } {
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (r.status !== 0 || g.status !== 0) throw new Error('running as root needs a `postgres` user for initdb');
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}
