/**
 * A setting that is malformed or out of range, or names something this process cannot open or
 * reach (DATABASE_URL); the message names the variable.
 */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${variable}: ${message}`, options);
    this.name = 'ConfigError';
  }
}
