/**
 * Child processes of a benchmark run: free ports, starting and stopping servers, their CPU and
 * peak RSS from /proc, and the out-of-process load generator (bench/load.ts).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface LoadResult {
  requestsPerSecond: number;
  totalRequests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCounts: Record<string, number>;
  /** Jobs of a fixed amount: seconds from the start to the last response. */
  elapsedSeconds?: number;
  /** Server CPU use during the run: 1.0 is one core fully busy. */
  cpu?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** How a child is started: its environment, how it is known to be ready, where its stdout goes. */
export interface StartOptions {
  env: Record<string, string>;
  /** Ready once this answers 2xx; without it, once the child prints "listening". */
  readyUrl?: string;
  readyWithinMs?: number;
  /**
   * A file the child's stdout is appended to, as a process supervisor would keep it (an API
   * server's access log); without it, stdout is read for "listening" and kept for error messages.
   */
  stdoutFile?: string;
}

/**
 * Starts a child process, tracked in `children` until it exits, and resolves once it is ready
 * (StartOptions), within `readyWithinMs`.
 */
export async function start(
  children: Set<ChildProcess>,
  command: string,
  argv: string[],
  { env, readyUrl, readyWithinMs = 60_000, stdoutFile }: StartOptions,
): Promise<ChildProcess> {
  const stdout = stdoutFile === undefined ? 'pipe' : openSync(stdoutFile, 'a');
  const child = spawn(command, argv, { env: { ...process.env, ...env }, stdio: ['ignore', stdout, 'pipe'] });
  if (typeof stdout === 'number') closeSync(stdout);
  children.add(child);
  child.on('exit', () => children.delete(child));
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d) => {
    output += d.toString();
  });
  const deadline = Date.now() + readyWithinMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${argv.join(' ')} exited: ${output.slice(-2000)}`);
    if (readyUrl) {
      try {
        const r = await fetch(readyUrl);
        if (r.ok) return child;
      } catch {}
    } else if (output.includes('listening')) {
      return child;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${argv.join(' ')} did not become ready: ${output.slice(-2000)}`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** A memory figure of a process from /proc (VmHWM: peak resident set; VmRSS: resident now), in MiB. */
function statusMiB(child: ChildProcess, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return Math.round((kb / 1024) * 10) / 10;
  } catch {
    return Number.NaN;
  }
}

/** Peak resident set size of a process, in MiB. */
export const peakRssMiB = (child: ChildProcess) => statusMiB(child, 'VmHWM');

/** Resident set size of a process now, in MiB. */
export const rssMiB = (child: ChildProcess) => statusMiB(child, 'VmRSS');

/** A server's peak resident set and what it holds now, as the results table shows them. */
export const memoryOf = (child: ChildProcess) => ({ rssMiB: peakRssMiB(child), rssAfterMiB: rssMiB(child) });

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 1/100 s). */
/**
 * The machine's CPU time so far, in ticks: all of it, idle (waiting for I/O included), and what
 * the hypervisor gave to others ("steal", proc(5)): a window in which others took the cores is
 * slow for reasons of theirs.
 */
export function machineTicks(): { total: number; idle: number; steal: number } {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9);
    const ticks = fields.map(Number);
    return {
      total: ticks.reduce((a, b) => a + b, 0),
      idle: (ticks[3] ?? 0) + (ticks[4] ?? 0),
      steal: ticks[7] ?? 0,
    };
  } catch {
    return { total: Number.NaN, idle: Number.NaN, steal: Number.NaN };
  }
}

export function cpuSeconds(child: ChildProcess): number {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * Unmeasured load each server of a steady-state scenario gets first (measureInterleaved): it is
 * then measured after its JIT has compiled the path and the machine has settled from starting it.
 */
const WARM_UP_SECONDS = 2;

/** Runs a load job against `server` and adds how busy the server was (CPU seconds per second). */
export function measure(root: string, server: ChildProcess, job: Record<string, unknown>): LoadResult {
  const cpuBefore = cpuSeconds(server);
  const started = Date.now();
  const result = runLoad(root, job);
  result.cpu = (cpuSeconds(server) - cpuBefore) / ((Date.now() - started) / 1000);
  return result;
}

/** One server and the load job that measures it. */
export interface Subject {
  server: ChildProcess;
  job: Record<string, unknown>;
}

/** Per subject, its rounds combined, and each round's throughput over the first subject's. */
export interface Interleaved {
  results: LoadResult[];
  roundRatios: number[][];
}

/**
 * Measures several servers in turns: each is warmed up once (WARM_UP_SECONDS), then every round
 * gives each of them `job.duration / rounds` seconds (whole seconds), one after another. On a
 * shared machine the throughput of a server moves with its neighbours' load from one minute to
 * the next; measured in turns, every server sees the same drift, so the ratio between them holds
 * still where back-to-back runs of the full duration did not (the same reference read 16,717 and
 * 27,986 req/s minutes apart). Combined: requests and CPU are summed, req/s is the mean of the
 * rounds (all of one length), p50 the median of the rounds' p50s, and p99 and max the worst
 * round's: an upper bound of the whole run's p99, which autocannon's summaries cannot merge
 * exactly.
 */
export function measureInterleaved(root: string, subjects: readonly Subject[], rounds: number): Interleaved {
  for (const s of subjects) runLoad(root, { ...s.job, duration: WARM_UP_SECONDS });
  const perSubject: LoadResult[][] = subjects.map(() => []);
  for (let round = 0; round < rounds; round++) {
    subjects.forEach((s, i) => {
      // Whole seconds: autocannon samples throughput once a second.
      const duration = Math.max(1, Math.round(Number(s.job.duration) / rounds));
      perSubject[i]!.push(measure(root, s.server, { ...s.job, duration }));
    });
  }
  const results = perSubject.map(combineRounds);
  const reference = perSubject[0]!;
  const roundRatios = perSubject.map((runs) =>
    runs.map((r, round) => r.requestsPerSecond / reference[round]!.requestsPerSecond),
  );
  return { results, roundRatios };
}

function combineRounds(runs: readonly LoadResult[]): LoadResult {
  const sum = (f: (r: LoadResult) => number) => runs.reduce((a, r) => a + f(r), 0);
  const worst = (f: (r: LoadResult) => number) => Math.max(...runs.map(f));
  const p50s = runs.map((r) => r.p50).sort((a, b) => a - b);
  const statusCounts: Record<string, number> = {};
  for (const r of runs)
    for (const [status, n] of Object.entries(r.statusCounts))
      statusCounts[status] = (statusCounts[status] ?? 0) + n;
  return {
    requestsPerSecond: sum((r) => r.requestsPerSecond) / runs.length,
    totalRequests: sum((r) => r.totalRequests),
    p50: p50s[Math.floor((p50s.length - 1) / 2)]!,
    p99: worst((r) => r.p99),
    max: worst((r) => r.max),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    non2xx: sum((r) => r.non2xx),
    statusCounts,
    cpu: sum((r) => r.cpu ?? 0) / runs.length,
  };
}

const loadArgv = (root: string, job: Record<string, unknown>) => [
  '--import',
  'tsx',
  join(root, 'bench/load.ts'),
  JSON.stringify(job),
];
const loadSummary = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop() as string) as LoadResult;

/** Runs bench/load.ts (under `root`) as its own process with `job` and returns its summary. */
function runLoad(root: string, job: Record<string, unknown>): LoadResult {
  const r = spawnSync(process.execPath, loadArgv(root, job), {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`load generator failed: ${r.stderr}`);
  return loadSummary(r.stdout);
}

/**
 * runLoad without blocking this process's event loop, for a server that runs in it
 * (bench/per-request.ts, bench/work-curve.ts).
 */
export function runLoadAsync(root: string, job: Record<string, unknown>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, loadArgv(root, job), { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(loadSummary(stdout)) : reject(new Error(`load generator exited with ${code}`)),
    );
  });
}
