import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { rpaNodeArgs } from '../helpers/rpa-cli.js';

/**
 * What `rpa serve` loads of OpenTelemetry (docs/tracing.md): nothing of it unless an OTLP endpoint
 * is configured. The process is started with a module of this test's preloaded: a resolve hook that
 * writes down every ES module resolved, and, at exit, every CommonJS module in require's cache
 * with the module that first required it (Node's hooks do not see CommonJS requiring CommonJS).
 */
const dir = mkdtempSync(join(tmpdir(), 'rpa-tracing-modules-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const HOOKS = `
import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(out, 'esm ' + resolved.url + '\\n');
  return resolved;
}
`;
const PRELOAD = `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
const out = process.env.RPA_TEST_MODULES_FILE;
register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { out } });
process.on('exit', () => {
  const { cache } = createRequire(import.meta.url);
  for (const [file, mod] of Object.entries(cache))
    appendFileSync(out, 'cjs ' + file + ' <- ' + (mod?.parent?.filename ?? '') + '\\n');
});
`;
writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
writeFileSync(join(dir, 'preload.mjs'), PRELOAD);

let runs = 0;

/** Starts `rpa serve` with `env`, asks it one question, stops it; the modules it had loaded. */
async function modulesLoadedBy(env: Record<string, string>): Promise<string[]> {
  const out = join(dir, `modules-${++runs}.txt`);
  const child = spawn(
    process.execPath,
    ['--import', pathToFileURL(join(dir, 'preload.mjs')).href, ...rpaNodeArgs(['serve'])],
    {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: `sqlite:${join(dir, `serve-${runs}.db`)}`,
        DATABASE_SCHEMA: '',
        REDIS_URL: '',
        LOG_LEVEL: 'info',
        SHUTDOWN_DELAY_MS: '0',
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
        OTEL_SDK_DISABLED: '',
        RPA_TEST_MODULES_FILE: out,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (m && /"msg":"serving"/.test(output)) resolve(Number(m[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
  assert.equal(answer.status, 200);
  child.kill('SIGTERM');
  assert.equal(await exited, 0, output);
  assert.ok(existsSync(out), output);
  return readFileSync(out, 'utf8').split('\n').filter(Boolean);
}

const ofOpenTelemetry = (line: string) => line.includes('@opentelemetry');

describe('OpenTelemetry in a started server', () => {
  it('loads none of it without an OTLP endpoint but the API prom-client requires', async () => {
    const loaded = await modulesLoadedBy({});
    assert.ok(
      loaded.some((l) => l.includes('fastify')),
      'the recording saw the server’s modules',
    );
    assert.deepEqual(
      loaded.filter((l) => l.startsWith('esm ') && ofOpenTelemetry(l)),
      [],
    );
    // prom-client requires @opentelemetry/api (for exemplars) whenever it is loaded: a facade that
    // does nothing until an SDK registers with it, which nothing here does.
    const required = loaded.filter((l) => l.startsWith('cjs ') && ofOpenTelemetry(l));
    const outside = required.filter(
      (l) => !/node_modules\/@opentelemetry\/api\/build\//.test(l.split(' <- ')[0]!),
    );
    assert.deepEqual(outside, []);
    const fromOutside = required.filter(
      (l) => !/@opentelemetry\/api\/|prom-client/.test(l.split(' <- ')[1]!),
    );
    assert.deepEqual(fromOutside, []);
  });

  it('loads the SDK and the exporter once one is set', async () => {
    const loaded = await modulesLoadedBy({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_BSP_EXPORT_TIMEOUT: '1000',
    });
    for (const name of ['sdk-trace-base', 'exporter-trace-otlp-proto', 'context-async-hooks'])
      assert.ok(
        loaded.some((l) => l.startsWith('esm ') && l.includes(`@opentelemetry/${name}/`)),
        `${name} loaded`,
      );
  });
});
