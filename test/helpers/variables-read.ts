import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { rpaAgainst } from './rpa-cli.js';

/**
 * The environment variables loadConfig reads, recorded as it reads them: once with nothing set,
 * and once with the settings that others depend on, so a variable read only then counts too.
 */
export function variablesRead(): ReadonlySet<string> {
  const read = new Set<string>();
  const recording = (values: Record<string, string>) =>
    new Proxy(values, {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return typeof name === 'string' ? target[name] : undefined;
      },
    });
  loadConfig(recording({}));
  loadConfig(
    recording({
      METRICS_PORT: '9100',
      DATABASE_URL: 'postgres://u@h/db',
      REDIS_URL: 'redis://h',
      LOG_LEVEL: 'debug',
    }),
  );
  return read;
}

/** `rpa <command> --help` succeeds and names every variable loadConfig reads. */
export async function assertHelpListsVariables(command: string): Promise<void> {
  const r = await rpaAgainst({ databaseUrl: 'sqlite::memory:', schema: undefined })(command, '--help');
  assert.equal(r.code, 0, r.stderr);
  const missing = [...variablesRead()].filter((name) => !new RegExp(`\\b${name}\\b`).test(r.stdout));
  assert.deepEqual(missing, [], r.stdout);
}
