import { type Child, spawnRpa, waitForOutput } from './child-processes.js';

export interface RpaInstance extends Child {
  readonly name: string;
  readonly port: number;
  readonly base: string;
}

/** `rpa serve` on a port of its own; resolves once it listens. */
export async function startInstance(name: string, env: Record<string, string>): Promise<RpaInstance> {
  const child = spawnRpa(['serve'], { PORT: '0', HOST: '127.0.0.1', SHUTDOWN_DELAY_MS: '0', ...env });
  const m = await waitForOutput(child, /Server listening at http:\/\/127\.0\.0\.1:(\d+)/);
  // Listening comes first; the API serves once the database is reached (build-front-server.ts).
  await waitForOutput(child, /"msg":"serving"/);
  const port = Number(m[1]);
  return { ...child, name, port, base: `http://127.0.0.1:${port}` };
}

/** `rpa worker`; resolves once its privacy worker runs. */
export async function startWorker(env: Record<string, string>): Promise<Child> {
  const child = spawnRpa(['worker'], env);
  await waitForOutput(child, /privacy worker started/);
  return child;
}

export function isRunning(child: Child): boolean {
  return child.process.exitCode === null && child.process.signalCode === null;
}

/**
 * Why a child exited, from what it wrote: its last error lines other than stack frames and log
 * records, or its last lines when it wrote no error.
 */
export function exitReason(child: Child): string {
  const lines = child
    .output()
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^(at |\[\.\.\. lines|Node\.js v|\^+$|\{)/.test(l));
  const errors = lines.filter((l) => /Error|Unhandled|ECONN|terminat/.test(l));
  return (errors.length > 0 ? errors.slice(-2) : lines.slice(-2)).join(' / ').slice(0, 400);
}
