/**
 * Runs bench/mix-load.ts as its own process and, while it runs, reads the server's resident memory
 * and CPU time at every window's bounds, so each window of answers has the server's figures beside it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { MixResult } from '../mix-load.js';
import { cpuSeconds, machineTicks, rssMiB } from './processes.js';

/**
 * The server at a window's bound: when (epoch ms), its resident set (MiB), its CPU seconds so far,
 * and where it serves /metrics: its event-loop delay since the last read (the server's collector
 * resets it on each), and the time spent in major GC so far, in ms.
 */
export interface ServerSample {
  at: number;
  rssMiB: number;
  cpuSeconds: number;
  machine: ReturnType<typeof machineTicks>;
  loopDelay?: { p99Ms: number; maxMs: number };
  majorGcMs?: number;
}

/** A sample's /metrics figures, or none when the server's metrics could not be read. */
async function readServerMetrics(metricsBase: string | undefined) {
  if (!metricsBase) return {};
  try {
    const text = await (await fetch(`${metricsBase}/metrics`)).text();
    const value = (line: RegExp) => Math.round(Number(text.match(line)?.[1]) * 10_000) / 10;
    return {
      loopDelay: {
        p99Ms: value(/^rpa_nodejs_eventloop_lag_p99_seconds(?:\{[^}]*\})? (\S+)$/m),
        maxMs: value(/^rpa_nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? (\S+)$/m),
      },
      majorGcMs: value(/^rpa_nodejs_gc_duration_seconds_sum\{kind="major"[^}]*\} (\S+)$/m) || 0,
    };
  } catch {
    return {};
  }
}

export interface MixRun {
  result: MixResult;
  /** When the schedule started (epoch ms), as the load generator saw it. */
  startedAt: number;
  /** At the start and at the end of each window. */
  samples: ServerSample[];
}

export function runMix(
  root: string,
  children: Set<ChildProcess>,
  server: ChildProcess,
  job: { seconds: number; windowSeconds: number } & Record<string, unknown>,
  metricsBase?: string,
): Promise<MixRun> {
  const sample = async (): Promise<ServerSample> => ({
    at: Date.now(),
    rssMiB: rssMiB(server),
    cpuSeconds: cpuSeconds(server),
    machine: machineTicks(),
    ...(await readServerMetrics(metricsBase)),
  });
  const samples: Promise<ServerSample>[] = [];
  const timers: NodeJS.Timeout[] = [];
  const windows = Math.max(1, Math.ceil(job.seconds / job.windowSeconds));
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'bench/mix-load.ts'), JSON.stringify(job)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.add(child);
    let stdout = '';
    let startedAt: number | undefined;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      if (startedAt === undefined && stdout.includes('\n')) {
        startedAt = (JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as { startedAt: number }).startedAt;
        for (let w = 0; w <= windows; w++) {
          const bound = startedAt + Math.min(w * job.windowSeconds, job.seconds) * 1000;
          timers.push(setTimeout(() => samples.push(sample()), Math.max(0, bound - Date.now())));
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      children.delete(child);
      for (const t of timers) clearTimeout(t);
      // The last bound may fall a moment after the generator's end.
      if (samples.length < windows + 1) samples.push(sample());
      if (code !== 0 || startedAt === undefined) {
        reject(new Error(`mix load exited with ${code}`));
        return;
      }
      const result = JSON.parse(stdout.trim().split('\n').pop() as string) as MixResult;
      const started = startedAt;
      Promise.all(samples).then((taken) => resolve({ result, startedAt: started, samples: taken }), reject);
    });
  });
}
