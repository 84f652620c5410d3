import { InvalidArgumentError, Option } from 'commander';
import { configVariables } from '../config.js';
import { type Environment, isEnvironment } from '../domain/environment.js';

export function parseEnvironment(v: string): Environment {
  if (!isEnvironment(v)) throw new InvalidArgumentError('expected production or staging');
  return v;
}

/** A comma-separated list, e.g. client names or event types; blanks around and between are dropped. */
export function parseList(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A whole number from 1, and at most `max` when one is given: a count or a limit. */
export function positiveIntegerParser(max?: number): (v: string) => number {
  const expected = `expected a whole number from 1${max === undefined ? '' : ` to ${max}`}`;
  return (v) => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < 1 || (max !== undefined && n > max)) throw new InvalidArgumentError(expected);
    return n;
  };
}

/** `--env`: the environment a command works in, production unless told otherwise. */
export function environmentOption(): Option {
  return new Option('--env <environment>', 'production or staging')
    .default('production' as Environment)
    .argParser(parseEnvironment);
}

/** `--json`: the result as JSON on stdout (output.ts), for scripts. */
export function jsonOption(): Option {
  return new Option('--json', 'machine-readable output');
}

/**
 * The help's list of the environment variables the configuration reads (docs/configuration.md
 * says what each does), wrapped to a terminal's 80 columns. Given to commander as a function, so
 * the configuration is walked only when help is shown, not on every start of the CLI.
 */
export function environmentHelp(): string {
  const lines = ['', 'Environment variables (see docs/configuration.md):'];
  let line = ' ';
  for (const name of configVariables()) {
    if (line.length + name.length + 2 > 78) {
      lines.push(line);
      line = ' ';
    }
    line += ` ${name},`;
  }
  lines.push(line.replace(/,$/, ''));
  return lines.join('\n');
}
