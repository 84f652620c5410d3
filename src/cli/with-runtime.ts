import { userInfo } from 'node:os';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { createRuntime, type Runtime } from '../runtime.js';
import type { CliIo, CliOutput } from './cli-io.js';

/** The operating-system user running the command; a container may have no passwd entry for it. */
function operatorName(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER || env.LOGNAME || `uid-${process.getuid?.() ?? 'unknown'}`;
  }
}

/** Runs a CLI command against the configured database, closing it afterwards. */
export async function withRuntime<T>(io: CliIo, fn: (runtime: Runtime) => Promise<T>): Promise<T> {
  const config = loadConfig(io.env);
  // Administrative commands print results on stdout and their logs on stderr: the JSON lines when
  // LOG_LEVEL asks for them, otherwise warnings and errors only, each one line a person can read.
  const logger = io.env.LOG_LEVEL
    ? createLogger(config.logLevel, io.stderr)
    : createLogger('warn', plainLines(io.stderr));
  const runtime = await createRuntime(config, {
    logger,
    actor: `cli:${operatorName(io.env)}`,
    // No request waits on an operator's command (an import of a large file, say): it gets the
    // deadline of background work (docs/configuration.md).
    store: { statementTimeoutMs: config.databasePool.backgroundStatementTimeoutMs },
    // It serves no request and runs no worker: no span would start (docs/tracing.md).
    tracing: false,
  });
  try {
    return await fn(runtime);
  } finally {
    await runtime.close();
  }
}

const LEVELS: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };

/** `rpa: warning: <message> (<error>)` for each log line, instead of its JSON. */
function plainLines(out: CliOutput): { write(line: string): void } {
  return {
    write(line) {
      const entry = JSON.parse(line) as { level: number; msg?: string; err?: { message?: string } };
      const cause = entry.err?.message ? ` (${entry.err.message})` : '';
      out.write(`rpa: ${LEVELS[entry.level] ?? 'log'}: ${entry.msg ?? ''}${cause}\n`);
    },
  };
}
