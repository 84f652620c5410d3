import { type ChildProcess, spawn } from 'node:child_process';
import { rpaNodeArgs } from '../helpers/rpa-cli.js';

export interface Child {
  readonly process: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
}

/** Runs `rpa <command>` in a child process (the built CLI when it is current), collecting its output. */
export function spawnRpa(args: readonly string[], env: Record<string, string>): Child {
  return spawnCollecting(process.execPath, rpaNodeArgs(args), { env });
}

export function spawnScript(script: string, args: readonly string[], env: Record<string, string>): Child {
  return spawnCollecting(process.execPath, ['--import', 'tsx', script, ...args], { env });
}

/** Runs `command` in a child process (LOG_LEVEL info unless `env` says otherwise), collecting its output. */
export function spawnCollecting(
  command: string,
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string },
): Child {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, LOG_LEVEL: 'info', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { process: child, output: () => out, exited };
}

/** Waits until the child's output matches, failing if it exits first. */
export function waitForOutput(child: Child, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = pattern.exec(child.output());
      if (m) {
        child.process.stdout?.off('data', check);
        child.process.stderr?.off('data', check);
        resolve(m);
      }
    };
    child.process.stdout?.on('data', check);
    child.process.stderr?.on('data', check);
    child.exited.then((code) =>
      reject(new Error(`process exited (${code}) before ${pattern}: ${child.output()}`)),
    );
    check();
  });
}

/** Starts `rpa serve` on a free port; resolves once it listens. */
export async function startServe(env: Record<string, string>): Promise<Child & { port: number }> {
  const child = spawnRpa(['serve'], { PORT: '0', HOST: '127.0.0.1', SHUTDOWN_DELAY_MS: '0', ...env });
  const m = await waitForOutput(child, /Server listening at http:\/\/127\.0\.0\.1:(\d+)/);
  // Listening comes first; the API serves once the database is reached (build-front-server.ts).
  await waitForOutput(child, /"msg":"serving"/);
  return { ...child, port: Number(m[1]) };
}

export async function stop(child: Child): Promise<number | null> {
  if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGTERM');
  return child.exited;
}
