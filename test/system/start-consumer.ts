import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from '../helpers/repo-root.js';

const CONSUMER = join(REPO_ROOT, 'test', 'system', 'burst-consumer.ts');

/** Per passkey id: calls admitted, and refused by the rate limit or by the quota. */
export type Outcome = Record<string, { allowed: number; rate: number; quota: number }>;

export interface Consumer {
  readonly ready: Promise<void>;
  readonly outcome: Promise<Outcome>;
  go(): void;
  /** Kills the process at once (SIGKILL): it gives nothing back. Resolves when it has exited. */
  kill(): Promise<void>;
}

/** Starts burst-consumer.ts in a process of its own, with `env` added to this one's. */
export function startConsumer(env: Record<string, string>): Consumer {
  const child = spawn(process.execPath, ['--import', 'tsx', CONSUMER], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout });
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  let killed = false;
  const outcome = new Promise<Outcome>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') markReady();
      else resolve(JSON.parse(line) as Outcome);
    });
    child.on('exit', (code) => {
      if (code !== 0 && !killed) reject(new Error(`consumer exited with ${code}`));
    });
  });
  return {
    ready,
    outcome,
    go: () => child.stdin.end('go\n'),
    async kill() {
      killed = true;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Adds up the outcomes of several consumers, per passkey. */
export function sumOutcomes(outcomes: readonly Outcome[]): Outcome {
  const total: Outcome = {};
  for (const o of outcomes) {
    for (const [id, counts] of Object.entries(o)) {
      total[id] ??= { allowed: 0, rate: 0, quota: 0 };
      const sum = total[id]!;
      sum.allowed += counts.allowed;
      sum.rate += counts.rate;
      sum.quota += counts.quota;
    }
  }
  return total;
}
