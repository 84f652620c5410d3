/** Progress messages go to stderr, so stdout carries only the report. */
export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
