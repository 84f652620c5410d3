import type { FastifyBaseLogger, LogLevel } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * `request.log`, made into a pino child only when a line is written at an enabled level. A child's
 * bindings go through the redaction (logger.ts: the `*.key` paths apply to every value), which
 * costs ~5 µs a request: a tenth of what serving a small answer costs, spent in vain on every
 * request that logs nothing, as all do at LOG_LEVEL=warn. The lines written are the child's own.
 */
class DeferredChildLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;

  constructor(parent: FastifyBaseLogger, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #made(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings);
    return this.#child;
  }

  #writes(method: Method): boolean {
    return ((this.#child ?? this.#parent) as Logger).isLevelEnabled(method);
  }

  get level(): LogLevel {
    return (this.#child ?? this.#parent).level as LogLevel;
  }
  set level(level: LogLevel) {
    this.#made().level = level;
  }

  // Prototype methods, not per-instance closures: one object per request, nothing more.
  fatal(...args: unknown[]): void {
    this.#log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#log('error', args);
  }
  warn(...args: unknown[]): void {
    this.#log('warn', args);
  }
  info(...args: unknown[]): void {
    this.#log('info', args);
  }
  debug(...args: unknown[]): void {
    this.#log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#log('trace', args);
  }
  silent(): void {}

  #log(method: Method, args: unknown[]): void {
    if (this.#writes(method)) (this.#made()[method] as (...a: unknown[]) => void)(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`. A route's own log level or serializers (`logLevel`,
 * `logSerializers`) need the real child at once.
 */
export function deferredRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  for (const _ in options) return logger.child(bindings, options);
  // Its methods take what pino's do (FastifyLogFn's overloads), passed on unchanged.
  return new DeferredChildLogger(logger, bindings) as unknown as FastifyBaseLogger;
}
