import { ConfigError } from './config-error.js';

/*
 * The readers of config.ts's settings table. An unset or empty variable gives the fallback; any
 * other value is checked, and one that does not pass throws a ConfigError naming the variable, so
 * a process never starts on a setting it misread.
 */

/** The environment variables settings are read from (process.env, or a test's own). */
export type Env = Readonly<Record<string, string | undefined>>;

export function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max)
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${env[name]}"`);
}

export function readEnum<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

/** A share from 0 to 1, as a decimal number (`0.25`, `.5`, `1`). */
export function readShare(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(raw))
    throw new ConfigError(name, `expected a number from 0 to 1, got "${raw}"`);
  const value = Number(raw);
  if (value > 1) throw new ConfigError(name, `must be between 0 and 1, got ${raw}`);
  return value;
}
