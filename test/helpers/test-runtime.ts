import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { type Config, loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/build-server.js';
import { createLogger } from '../../src/logger.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { parseDatabaseUrl } from '../../src/store/database.js';

/**
 * Storage suites run against the database named by DATABASE_URL: SQLite in memory by default,
 * PostgreSQL when it is a postgres:// URL (.ci/run runs the suite once with each). Every test
 * runtime gets its own PostgreSQL schema, so parallel test files never see each other's rows.
 */
export const TEST_DATABASE_URL = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : 'sqlite::memory:';
export const TEST_DIALECT = parseDatabaseUrl(TEST_DATABASE_URL).dialect;
export const TEST_REDIS_URL = process.env.REDIS_URL || undefined;

/** Collects every log line a runtime writes, so tests can assert what is (not) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  text(): string {
    return this.lines.join('\n');
  }
}

export interface TestRuntime extends Runtime {
  readonly config: Config;
  readonly logs: LogCapture;
  readonly schema: string | undefined;
}

export function uniqueSchema(): string {
  return `t_${randomBytes(6).toString('hex')}`;
}

export async function createTestRuntime(
  env: Record<string, string> = {},
  options: { clock?: () => number; schema?: string; databaseUrl?: string; keepSchema?: boolean } = {},
): Promise<TestRuntime> {
  const databaseUrl = options.databaseUrl ?? TEST_DATABASE_URL;
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'info',
    WORKER_ENABLED: 'false',
    DATABASE_POOL_SIZE: '5',
    // A test's own work runs on the server's event loop and test files run side by side, so the
    // event loop lags for reasons no call is behind; shedding is tested where it is turned on.
    SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    SHED_MAX_IN_FLIGHT: '0',
    ...(TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL } : {}),
    ...env,
  });
  const logs = new LogCapture();
  const schema =
    parseDatabaseUrl(databaseUrl).dialect === 'postgres' ? (options.schema ?? uniqueSchema()) : undefined;
  const runtime = await createRuntime(config, {
    logger: createLogger(config.logLevel, logs),
    ...(schema ? { store: { schema } } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    // Outages end with the first success, so a test need not wait out the hold (create-outage-log.ts).
    outageHoldMs: 0,
  });
  return {
    ...runtime,
    config,
    logs,
    schema,
    async close() {
      await runtime.close();
      if (schema && !options.keepSchema) await dropSchema(databaseUrl, schema);
    },
  };
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own on the server of `url`, for a test that must not see what others do in
 * theirs: PostgreSQL drops every plan a connection keeps whenever a schema is created or dropped in
 * its database, as the other suites' runtimes do all the time.
 */
export async function createDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return { url: own.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

export interface TestApp {
  readonly app: FastifyInstance;
  readonly runtime: TestRuntime;
  close(): Promise<void>;
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: { clock?: () => number } = {},
): Promise<TestApp> {
  const runtime = await createTestRuntime(env, options);
  const app = await buildServer(runtime.http);
  await app.ready();
  return {
    app,
    runtime,
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}
