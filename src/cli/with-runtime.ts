import { userInfo } from 'node:os';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { createRuntime, type Runtime } from '../runtime.js';

/** The operating-system user running the command; a container may have no passwd entry for it. */
export function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER || process.env.LOGNAME || `uid-${process.getuid?.() ?? 'unknown'}`;
  }
}

/** Runs a CLI command against the configured database, closing it afterwards. */
export async function withRuntime<T>(fn: (runtime: Runtime) => Promise<T>): Promise<T> {
  const config = loadConfig();
  // Administrative commands print results on stdout; their logs go to stderr and only when asked.
  const logger = createLogger(process.env.LOG_LEVEL ? config.logLevel : 'warn', process.stderr);
  const runtime = await createRuntime(config, { logger, actor: `cli:${operatorName()}` });
  try {
    return await fn(runtime);
  } finally {
    await runtime.close();
  }
}
