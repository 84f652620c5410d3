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
  /**
   * SIGSTOP to this cluster's postmaster, then to each of its processes: connections stay open and
   * nothing is answered, nor accepted, until `resume`.
   */
  pause(): void;
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
  const killOnExit = () => {
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
      const postmaster = postmasterPid();
      // The postmaster first, so that it forks no process the list below would miss.
      process.kill(postmaster, 'SIGSTOP');
      for (const pid of childrenOf(postmaster)) process.kill(pid, 'SIGSTOP');
    },
    resume() {
      const postmaster = postmasterPid();
      for (const pid of childrenOf(postmaster)) process.kill(pid, 'SIGCONT');
      process.kill(postmaster, 'SIGCONT');
    },
    destroy() {
      process.off('exit', killOnExit);
      // A paused cluster cannot stop.
      if (running()) {
        try {
          const postmaster = postmasterPid();
          for (const pid of childrenOf(postmaster)) process.kill(pid, 'SIGCONT');
          process.kill(postmaster, 'SIGCONT');
        } catch {
          // Already gone.
        }
      }
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

/** The processes whose parent is `parent` (/proc/PID/stat: the field after the command's parentheses). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return children;
}

function postgresUser(): { uid: number; gid: number } {
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (r.status !== 0 || g.status !== 0) throw new Error('running as root needs a `postgres` user for initdb');
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}
