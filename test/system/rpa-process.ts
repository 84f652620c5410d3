import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Child, spawnCollecting, spawnRpa, waitForOutput } from './child-processes.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Whether `dist/` holds a build of every source file at least as new as it (`npm install` and CI
 * build it; a checkout edited since has not). The built CLI starts without compiling anything,
 * which matters with three servers and a load generator on two cores.
 */
function builtCliIsCurrent(): boolean {
  const walk = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).every((e) => {
      const source = join(dir, e.name);
      if (e.isDirectory()) return walk(source);
      if (!e.name.endsWith('.ts')) return true;
      const built = join(repo, 'dist', source.slice(join(repo, 'src').length).replace(/\.ts$/, '.js'));
      return existsSync(built) && statSync(built).mtimeMs >= statSync(source).mtimeMs;
    });
  return existsSync(join(repo, 'dist', 'cli', 'main.js')) && walk(join(repo, 'src'));
}

/** `rpa <args>` as a long-running child: the built CLI when it is current, the sources otherwise. */
function spawnRpaProcess(args: readonly string[], env: Record<string, string>): Child {
  if (!builtCliIsCurrent()) return spawnRpa(args, env);
  return spawnCollecting(process.execPath, [join(repo, 'dist', 'cli', 'main.js'), ...args], {
    env,
    cwd: repo,
  });
}

export interface RpaInstance extends Child {
  readonly name: string;
  readonly port: number;
  readonly base: string;
}

/** `rpa serve` on a port of its own; resolves once it listens. */
export async function startInstance(name: string, env: Record<string, string>): Promise<RpaInstance> {
  const child = spawnRpaProcess(['serve'], { PORT: '0', HOST: '127.0.0.1', ...env });
  const m = await waitForOutput(child, /Server listening at http:\/\/127\.0\.0\.1:(\d+)/);
  const port = Number(m[1]);
  return { ...child, name, port, base: `http://127.0.0.1:${port}` };
}

/** `rpa worker`; resolves once its privacy worker runs. */
export async function startWorker(env: Record<string, string>): Promise<Child> {
  const child = spawnRpaProcess(['worker'], env);
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
