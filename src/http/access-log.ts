import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config.js';
import { type AccessAnswer, type AccessMessage, type AccessRequest, accessLine } from './access-line.js';

export interface AccessLog {
  /** Whether an answer with this status, after `ms` milliseconds, gets a line. */
  keeps(status: number, ms: number): boolean;
  write(request: AccessRequest, answer: AccessAnswer): void;
}

export interface AccessLogOptions {
  readonly msg: AccessMessage;
  /**
   * Whether ACCESS_LOG_SAMPLE thins this listener's lines: the admin listener's are few and each
   * is an operator's call, kept whole.
   */
  readonly sampled: boolean;
  /** A number in [0, 1) per sampled line: Math.random, unless a test chooses. */
  readonly random?: () => number;
}

/**
 * The access log of one listener (docs/operations.md, Access log): which answers get a line
 * (ACCESS_LOG, ACCESS_LOG_SAMPLE, ACCESS_LOG_SLOW_MS; at `info` only, so LOG_LEVEL=warn turns it
 * off), each written in the logger's own stream with its level, time and bindings. These are read
 * through `pino.symbols`, which pino exposes for "performant integration" (pino docs, API,
 * pino.symbols): every other line goes through the logger as before, and the two kinds stay in
 * order in one stream (batched-stdout.ts in production).
 */
export function createAccessLog(
  deps: { config: Config; logger: Logger },
  options: AccessLogOptions,
): AccessLog {
  const { logger } = deps;
  const { mode, sample, slowMs } = deps.config.accessLog;
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as DestinationStream;
  const time = internals[pino.symbols.timeSym] as () => string;
  const level = `{"level":${logger.levels.values.info}`;
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const share = options.sampled ? sample : 1;
  const random = options.random ?? Math.random;
  return {
    keeps(status, ms) {
      if (mode === 'off' || !logger.isLevelEnabled('info')) return false;
      // Every error and slow call is kept: they are what an operator reads the log for.
      if (status >= 400 || ms >= slowMs) return true;
      return mode === 'on' && (share === 1 || random() < share);
    },
    write(request, answer) {
      stream.write(accessLine(`${level}${time()}${bindings}`, options.msg, request, answer));
    },
  };
}
