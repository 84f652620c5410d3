/**
 * What a run measures against: a database target (SQLite in a temporary folder, or a schema of its
 * own on PostgreSQL with Redis), the demo tenant seeded through the `rpa` CLI, the API server
 * started on it, and a token from that server.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { BenchContext, BenchSettings } from './bench-context.js';
import { log } from './log.js';
import { freePort, start } from './processes.js';
import { answerEnv } from './reference-servers.js';

export interface Demo {
  clientId: string;
  clientSecret: string;
  responsePasskey: string;
  privacyPasskey: string;
  reviewIds: string[];
}

export interface Target {
  name: string;
  env: Record<string, string>;
  /** Rows of `table` where `condition` (SQL both databases read alike) holds, read directly. */
  count(table: string, condition?: string): Promise<number>;
  cleanup(): Promise<void>;
  /**
   * Does what PostgreSQL's autovacuum does on an operator's server, once a minute until the
   * returned function is called: the machine's shared server runs with it off, and a plan made
   * on the statistics of a table's first rows stops being right as the table grows
   * (docs/operations.md). Nothing to do on SQLite.
   */
  autovacuum(): () => Promise<void>;
}

/** autovacuum_naptime's default. */
const AUTOVACUUM_NAPTIME_MS = 60_000;

export async function targetFor(
  db: string,
  settings: Pick<BenchSettings, 'postgresUrl' | 'redisUrl'>,
): Promise<Target> {
  // Limits are set far above what a run can reach: the benchmark measures serving, not refusing.
  const limits = { DEFAULT_RATE_LIMIT_PER_MINUTE: '10000000', DEFAULT_QUOTA_PER_DAY: '1000000000' };
  if (db === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'rpa-bench-'));
    const file = join(dir, 'bench.db');
    return {
      name: 'SQLite',
      env: { ...limits, DATABASE_URL: `sqlite:${file}` },
      async count(table, condition = '1 = 1') {
        const db = new Database(file, { readonly: true });
        try {
          return Number(
            (db.prepare(`select count(*) as n from ${table} where ${condition}`).get() as { n: number }).n,
          );
        } finally {
          db.close();
        }
      },
      async cleanup() {
        rmSync(dir, { recursive: true, force: true });
      },
      autovacuum: () => async () => {},
    };
  }
  const { postgresUrl, redisUrl } = settings;
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  return {
    name: 'PostgreSQL+Redis',
    env: { ...limits, DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema, REDIS_URL: redisUrl },
    async count(table, condition = '1 = 1') {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        const r = await client.query<{ n: string }>(
          `select count(*) as n from ${schema}.${table} where ${condition}`,
        );
        return Number(r.rows[0]?.n);
      } finally {
        await client.end();
      }
    },
    async cleanup() {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
    autovacuum() {
      const client = new pg.Client({ connectionString: postgresUrl });
      const connected = client.connect();
      let pass = Promise.resolve();
      const vacuum = async () => {
        await connected;
        const tables = await client.query<{ name: string }>(
          'select tablename as name from pg_tables where schemaname = $1',
          [schema],
        );
        for (const { name } of tables.rows) await client.query(`vacuum (analyze) ${schema}.${name}`);
      };
      const timer = setInterval(() => {
        pass = pass.then(vacuum).catch((err: unknown) => log(`autovacuum of ${schema} failed: ${err}`));
      }, AUTOVACUUM_NAPTIME_MS);
      return async () => {
        clearInterval(timer);
        await pass;
        await connected.then(() => client.end());
      };
    },
  };
}

/** Runs the built CLI (`rpa`) under `root` and returns its stdout. */
function rpa(root: string, env: Record<string, string>, ...argv: string[]): string {
  const r = spawnSync(process.execPath, [join(root, 'dist/cli/main.js'), ...argv], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`rpa ${argv.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** Seeds the demo tenant on `target` (`rpa demo --json`) and returns its production credentials. */
export function seedDemo(root: string, target: Target): Demo {
  return (JSON.parse(rpa(root, target.env, 'demo', '--json')) as { production: Demo }).production;
}

/**
 * How an API server of a run is configured. By default as operators run it: LOG_LEVEL unset
 * (`info`), one access-log line per request, stdout appended to a file as a process supervisor
 * would keep it. `logLevel: 'warn'` measures the same server without the access log.
 */
export interface ApiOptions {
  logLevel?: 'warn';
  /** Serve /metrics on a port of its own too (`metricsBase`), to read the server's GC and event-loop delay. */
  metrics?: true;
  /**
   * Export traces to the run's discarding OTLP receiver (bench/otlp-sink.ts), sampling new traces
   * at `ratio` (parentbased_traceidratio, the default sampler: docs/tracing.md).
   */
  tracing?: { sink: string; ratio: number };
}

/** Starts the API server (`rpa serve`) on `target` and resolves once /readyz answers. */
export async function startApi(
  ctx: BenchContext,
  target: Target,
  { logLevel, metrics, tracing }: ApiOptions = {},
) {
  const { root, profile: profileDir, logs } = ctx.settings;
  const port = await freePort();
  const metricsPort = metrics ? await freePort() : undefined;
  const env = {
    ...target.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    ...(logLevel ? { LOG_LEVEL: logLevel } : {}),
    ...(metricsPort ? { METRICS_PORT: String(metricsPort) } : {}),
    ...(tracing
      ? {
          OTEL_EXPORTER_OTLP_ENDPOINT: tracing.sink,
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: String(tracing.ratio),
        }
      : {}),
  };
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const base = `http://127.0.0.1:${port}`;
  const child = await start(
    ctx.children,
    process.execPath,
    [...profile, join(root, 'dist/cli/main.js'), 'serve'],
    {
      env,
      readyUrl: `${base}/readyz`,
      stdoutFile: join(logs, `api-${port}.log`),
    },
  );
  const metricsBase = metricsPort ? `http://127.0.0.1:${metricsPort}` : undefined;
  return { child, base, metricsBase };
}

/**
 * A reference server (bench/<script>) answering `answer`'s bytes, on a port of its own: the node:http
 * ceiling or the framework's floor, with `env` for the script's other settings.
 */
export async function startReference(
  ctx: BenchContext,
  script: string,
  answer: { body: string; contentType: string },
  env: Record<string, string> = {},
) {
  const port = await freePort();
  const child = await start(
    ctx.children,
    process.execPath,
    ['--import', 'tsx', join(ctx.settings.root, script)],
    {
      env: { PORT: String(port), ...answerEnv(answer), ...env },
    },
  );
  return { child, base: `http://127.0.0.1:${port}` };
}

/** The demo client's token request (client_secret_post), form-encoded. */
export function tokenForm(demo: Demo): string {
  return new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: demo.clientId,
    client_secret: demo.clientSecret,
  }).toString();
}

export async function getToken(base: string, demo: Demo): Promise<string> {
  const r = await fetch(`${base}/auth/v1/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenForm(demo),
  });
  if (!r.ok) throw new Error(`token request failed: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { access_token: string }).access_token;
}

/** Answers a demo review with a new response and returns the path of its author, passkey included. */
export async function authorPath(base: string, demo: Demo, token: string): Promise<string> {
  const create = await fetch(
    `${base}/response/v1/clientResponses/Acme-EN_GB/reviews/${demo.reviewIds[0]}?passkey=${demo.responsePasskey}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        attributes: { department: 'Support', response: `Thank you ${randomBytes(4).toString('hex')}` },
      }),
    },
  );
  if (!create.ok) throw new Error(`create response failed: ${create.status} ${await create.text()}`);
  const guid = ((await create.json()) as { data: { id: string } }).data.id;
  return `/response/v1/clientResponses/${guid}/author?passkey=${demo.responsePasskey}`;
}
