import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, SHARED_PORTS } from './free-port.js';

const HAPROXY = '/usr/sbin/haproxy';

export function hasHaproxy(): boolean {
  const bin = existsSync(HAPROXY) ? HAPROXY : 'haproxy';
  return spawnSync(bin, ['-v'], { encoding: 'utf8' }).status === 0;
}

/** What HAProxy counted for one server: re-sends and failures towards it, and its state. */
export interface ServerStats {
  readonly status: string;
  /** Connection errors (`econ`). */
  readonly connectionErrors: number;
  /** Response errors (`eresp`): the server closed or reset instead of answering. */
  readonly responseErrors: number;
  /** Requests sent again to the same server (`wretr`). */
  readonly retries: number;
  /** Requests sent again to another server (`wredis`). */
  readonly redispatches: number;
}

export interface Haproxy {
  readonly base: string;
  /** Per server of the checked backend, by name. */
  stats(): Promise<Map<string, ServerStats>>;
  /**
   * The access log lines so far (`access server status retries termination-state total-ms method
   * path`), without HAProxy's other lines (a server's state changes).
   */
  log(): string[];
  /** Resolves once HAProxy's health check counts `server` UP, or rejects past `boundMs`. */
  waitUntilUp(server: string, boundMs: number): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * HAProxy in front of the given servers, as a fleet would run it: `GET /readyz` every 0.5 s (two
 * failures take a server out, two successes bring it back), up to 3 re-sends of a request whose
 * connection failed or that got no answer, each to another server (`option redispatch 1`),
 * each re-send counted in the stats socket and shown in the log's retries field (`%rc`, `+` when
 * redispatched). Nothing routes around the check: when a shared dependency is down, the
 * instances must stay ready (docs/operations.md, Health, readiness and migrations) for clients to
 * get their own 503 with `Retry-After` rather than HAProxy's page.
 */
export async function startHaproxy(servers: ReadonlyMap<string, number>): Promise<Haproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-system-haproxy-'));
  const port = await freePort();
  if (SHARED_PORTS.includes(port)) throw new Error(`refusing the shared port ${port}`);
  const socket = join(dir, 'stats.sock');
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig({ port, socket, servers }));
  const child = spawn(existsSync(HAPROXY) ? HAPROXY : 'haproxy', ['-db', '-f', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const log: string[] = [];
  let rest = '';
  let errors = '';
  child.stdout?.on('data', (d: Buffer) => {
    const parts = (rest + d.toString()).split('\n');
    rest = parts.pop() ?? '';
    log.push(...parts);
  });
  child.stderr?.on('data', (d: Buffer) => {
    errors += d.toString();
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));

  const stats = () => readStats(socket);
  const haproxy: Haproxy = {
    base: `http://127.0.0.1:${port}`,
    stats,
    log: () => log.filter((line) => line.startsWith('access ')),
    async waitUntilUp(server, boundMs) {
      const until = Date.now() + boundMs;
      let last = 'unknown';
      while (Date.now() < until) {
        last = (await stats().catch(() => null))?.get(server)?.status ?? last;
        if (last === 'UP') return;
        await sleep(100);
      }
      throw new Error(`HAProxy did not count ${server} UP within ${boundMs / 1000} s (last: ${last})`);
    },
    async destroy() {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await untilListening(child, haproxy, () => errors).catch(async (err: unknown) => {
    await haproxy.destroy();
    throw err;
  });
  return haproxy;
}

/** The configuration `startHaproxy` describes. */
function haproxyConfig(options: {
  port: number;
  socket: string;
  servers: ReadonlyMap<string, number>;
}): string {
  const { port, socket, servers } = options;
  const lines = (check: string) =>
    [...servers].map(([name, p]) => `  server ${name} 127.0.0.1:${p}${check}`).join('\n');
  return `global
  stats socket ${socket} mode 600 level admin
  log stdout format raw local0
defaults
  mode http
  log global
  log-format "access %s %ST %rc %tsc %Tt %HM %HP"
  timeout connect 1s
  timeout client 30s
  timeout server 10s
  timeout http-keep-alive 10s
  timeout check 1s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response
frontend api
  bind 127.0.0.1:${port}
  default_backend fleet
backend fleet
  balance roundrobin
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
  default-server inter 500 fall 2 rise 2
${lines(' check')}
`;
}

async function untilListening(child: ChildProcess, haproxy: Haproxy, errors: () => string) {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}): ${errors()}`);
    if (
      await haproxy.stats().then(
        () => true,
        () => false,
      )
    )
      return;
    await sleep(100);
  }
  throw new Error(`haproxy did not start within 10 s: ${errors()}`);
}

/** `show stat` on the stats socket: HAProxy's CSV, one row per proxy and server. */
async function readStats(socket: string): Promise<Map<string, ServerStats>> {
  const csv = await new Promise<string>((resolve, reject) => {
    let out = '';
    const c = createConnection(socket, () => c.end('show stat\n'));
    c.on('data', (d: Buffer) => {
      out += d.toString();
    });
    c.on('end', () => resolve(out));
    c.on('error', reject);
  });
  const [header, ...rows] = csv.replace(/^# /, '').trim().split('\n');
  const names = (header ?? '').split(',');
  const stats = new Map<string, ServerStats>();
  for (const row of rows) {
    const cells = row.split(',');
    const field = (name: string) => cells[names.indexOf(name)] ?? '';
    const n = (name: string) => Number(field(name)) || 0;
    if (field('pxname') !== 'fleet' || ['FRONTEND', 'BACKEND'].includes(field('svname'))) continue;
    stats.set(field('svname'), {
      status: field('status'),
      connectionErrors: n('econ'),
      responseErrors: n('eresp'),
      retries: n('wretr'),
      redispatches: n('wredis'),
    });
  }
  return stats;
}
