/** A failure the CLI reports as one line of its own words, e.g. a file it cannot read. */
export class CliError extends Error {
  override readonly name = 'CliError';
}
