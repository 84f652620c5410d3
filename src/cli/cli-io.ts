/** A stream a command writes to: the process's stdout or stderr, or a test's collector. */
export interface CliOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/**
 * What a command reads its configuration from and writes to. `rpa` runs with the process's own
 * (processIo); tests run commands in process with theirs, as many as they like, without spawning.
 */
export interface CliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Set to 1 by a command that finished but must not read as success to a script. */
  exitCode: number;
}

export function processIo(): CliIo {
  return {
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    exitCode: 0,
  };
}
