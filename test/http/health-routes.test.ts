import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { type MigrationProvider, Migrator } from 'kysely';
import { AppError, DEPENDENCY_RETRY_AFTER_SECONDS } from '../../src/errors.js';
import { buildServer } from '../../src/http/build-server.js';
import { sendProblem } from '../../src/http/errors/render.js';
import { createInstanceState } from '../../src/services/health/instance-state.js';
import { openStore } from '../../src/store/database.js';
import { migrateToLatest, migrations } from '../../src/store/migrate.js';
import { eventually } from '../helpers/eventually.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import {
  createTestApp,
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  TEST_REDIS_URL,
  type TestRuntime,
  uniqueSchema,
} from '../helpers/test-runtime.js';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const host = { host: 'localhost' };

describe(`health and readiness on ${TEST_DIALECT}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-ready-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reports the running version on /healthz and /readyz', async () => {
    const t = await createTestApp();
    try {
      const live = await t.app.inject({ url: '/healthz', headers: host });
      assert.equal(live.statusCode, 200);
      assert.deepEqual(live.json(), { status: 'ok', version });
      const ready = await t.app.inject({ url: '/readyz', headers: host });
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json(), {
        status: 'ok',
        version,
        database: TEST_DIALECT,
        pendingMigrations: [],
        checks: { database: 'up', ...(TEST_REDIS_URL ? { redis: 'up' } : {}) },
      });
    } finally {
      await t.close();
    }
  });

  it('is not ready while the database lacks a migration this version needs, and ready once applied', async () => {
    // A new release started before its migrations ran (MIGRATE_ON_START=false, `rpa migrate` as a
    // separate release step): the instance is up but must not be sent traffic yet.
    const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
    const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'old.db')}`;
    const names = Object.keys(migrations);
    const last = names.at(-1) as string;
    const store = await openStore(databaseUrl, schema ? { schema } : {});
    const provider: MigrationProvider = { getMigrations: async () => ({ ...migrations }) };
    const migrator = new Migrator({
      db: store.db,
      provider,
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const older = await migrator.migrateTo(names.at(-2) as string);
    assert.equal(older.error, undefined);
    const runtime = await createTestRuntime(
      { MIGRATE_ON_START: 'false' },
      { databaseUrl, ...(schema ? { schema, keepSchema: true } : {}) },
    );
    const app = await buildServer(runtime.http);
    try {
      const live = await app.inject({ url: '/healthz', headers: host });
      assert.equal(live.statusCode, 200, 'alive all the same: restarting would not help');
      const pending = await app.inject({ url: '/readyz', headers: host });
      assert.equal(pending.statusCode, 503);
      assert.equal(pending.headers['content-type'], 'application/problem+json; charset=utf-8');
      const body = pending.json();
      assert.equal(body.status, 503);
      assert.equal(body.version, version);
      assert.deepEqual(body.pendingMigrations, [last]);
      assert.match(body.detail, /1 database migration is pending.*rpa migrate/);

      assert.deepEqual((await migrateToLatest(store.db, schema)).applied, [last]);
      const ready = await app.inject({ url: '/readyz', headers: host });
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json().pendingMigrations, []);
    } finally {
      await app.close();
      await runtime.close();
      await store.close();
      if (schema) await dropSchema(TEST_DATABASE_URL, schema);
    }
  });

  it('refuses to start on a database without any schema when migrations are not applied on start', async () => {
    const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
    const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'empty.db')}`;
    try {
      await assert.rejects(
        createTestRuntime({ MIGRATE_ON_START: 'false' }, { databaseUrl, ...(schema ? { schema } : {}) }),
        /has no tables yet.*rpa migrate/,
      );
    } finally {
      if (schema) await dropSchema(TEST_DATABASE_URL, schema);
    }
  });
});

/** The answer to `request`, or a failure once `ms` have passed without one. */
async function within<T>(ms: number, request: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([request, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `test` against an application whose PostgreSQL connections pass through a proxy it can
 * stall or refuse, and takes everything down afterwards.
 */
async function behindDatabaseProxy(
  env: Record<string, string>,
  test: (t: { app: FastifyInstance; runtime: TestRuntime; proxy: TcpProxy }) => Promise<void>,
): Promise<void> {
  const { hostname, port } = new URL(TEST_DATABASE_URL);
  const proxy = await startTcpProxy({ host: hostname, port: Number(port || 5432) });
  const runtime = await createTestRuntime(env, { databaseUrl: proxy.url(TEST_DATABASE_URL) });
  const app = await buildServer(runtime.http);
  try {
    await test({ app, runtime, proxy });
  } finally {
    proxy.setMode('pass');
    await app.close();
    await runtime.close();
    await proxy.close();
  }
}

describe('readiness follows the dependencies', () => {
  const onPostgres = TEST_DIALECT === 'postgres';

  for (const mode of ['stall', 'refuse'] as const) {
    it(`with READINESS_REQUIRES_DEPENDENCIES, is not ready, within about a second, while PostgreSQL connections ${mode === 'stall' ? 'stall' : 'are refused'}`, {
      skip: !onPostgres && 'PostgreSQL only: a database server reached over the network (DATABASE_URL)',
    }, async () => {
      await behindDatabaseProxy(
        { READINESS_REQUIRES_DEPENDENCIES: 'true' },
        async ({ app, runtime, proxy }) => {
          assert.equal((await app.inject({ url: '/readyz', headers: host })).statusCode, 200);
          proxy.setMode(mode);
          const down = await within(5000, app.inject({ url: '/readyz', headers: host }));
          assert.equal(down.statusCode, 503, down.body);
          assert.equal(down.headers['content-type'], 'application/problem+json; charset=utf-8');
          assert.match(String(down.headers['retry-after']), /^[1-9]\d*$/);
          const body = down.json();
          assert.equal(body.status, 503);
          assert.equal(body.version, version);
          assert.deepEqual(body.checks, { database: 'down', ...(TEST_REDIS_URL ? { redis: 'up' } : {}) });
          assert.match(body.detail, /database is not reachable/);
          const live = await app.inject({ url: '/healthz', headers: host });
          assert.equal(live.statusCode, 200, 'alive all the same: restarting would not help');

          proxy.setMode('pass');
          await eventually(async () => {
            const ready = await app.inject({ url: '/readyz', headers: host });
            assert.equal(ready.statusCode, 200, ready.body);
            assert.equal(ready.json().checks.database, 'up');
          });
          assert.doesNotMatch(runtime.logs.text(), /"stack"/);
        },
      );
    });
  }

  it('with READINESS_REQUIRES_DEPENDENCIES, is not ready, within about a second, while Redis stalls, and names it', {
    skip: !TEST_REDIS_URL && 'needs a Redis server (REDIS_URL)',
  }, async () => {
    const { hostname, port } = new URL(TEST_REDIS_URL as string);
    const proxy = await startTcpProxy({ host: hostname, port: Number(port || 6379) });
    const t = await createTestApp({
      REDIS_URL: proxy.url(TEST_REDIS_URL as string),
      READINESS_REQUIRES_DEPENDENCIES: 'true',
    });
    try {
      const ready = await t.app.inject({ url: '/readyz', headers: host });
      assert.equal(ready.statusCode, 200, ready.body);
      assert.deepEqual(ready.json().checks, { database: 'up', redis: 'up' });
      proxy.setMode('stall');
      const down = await within(5000, t.app.inject({ url: '/readyz', headers: host }));
      assert.equal(down.statusCode, 503, down.body);
      assert.match(String(down.headers['retry-after']), /^[1-9]\d*$/);
      assert.deepEqual(down.json().checks, { database: 'up', redis: 'down' });
      assert.match(down.json().detail, /Redis is not reachable/);
      proxy.setMode('pass');
      await eventually(async () => {
        assert.equal((await t.app.inject({ url: '/readyz', headers: host })).statusCode, 200);
      });
    } finally {
      proxy.setMode('pass');
      await t.close();
      await proxy.close();
    }
  });

  it('by default stays ready while PostgreSQL refuses connections, names it down, and the APIs answer 503', {
    skip: !onPostgres && 'PostgreSQL only: a database server reached over the network (DATABASE_URL)',
  }, async () => {
    await behindDatabaseProxy({}, async ({ app, runtime, proxy }) => {
      proxy.setMode('refuse');
      const ready = await within(5000, app.inject({ url: '/readyz', headers: host }));
      assert.equal(ready.statusCode, 200, ready.body);
      assert.equal(ready.json().checks.database, 'down');
      assert.match(
        await runtime.deps.metrics.registry.metrics(),
        /rpa_dependency_up\{dependency="database"\} 0/,
      );
      const token = await app.inject({
        method: 'POST',
        url: '/auth/v1/oauth2/token',
        headers: { ...host, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=a&client_secret=b',
      });
      assert.equal(token.statusCode, 503, token.body);
      assert.match(String(token.headers['retry-after']), /^[1-9]\d*$/);
      assert.equal(token.json().error, 'temporarily_unavailable');
      proxy.setMode('pass');
      await eventually(async () =>
        assert.match(
          await runtime.deps.metrics.registry.metrics(),
          /rpa_dependency_up\{dependency="database"\} 1/,
        ),
      );
    });
  });

  it("by default answers within a balancer's one-second check while PostgreSQL stalls, naming it down", {
    skip: !onPostgres && 'PostgreSQL only: a database server reached over the network (DATABASE_URL)',
  }, async () => {
    await behindDatabaseProxy({}, async ({ app, proxy }) => {
      assert.equal((await app.inject({ url: '/readyz', headers: host })).statusCode, 200);
      proxy.setMode('stall');
      // A probe slower than the balancer's check timeout counts as a failure: every instance would
      // leave the balancer over the outage they share.
      const ready = await within(800, app.inject({ url: '/readyz', headers: host }));
      assert.equal(ready.statusCode, 200, ready.body);
      assert.equal(ready.json().checks.database, 'down');
    });
  });

  it('by default stays ready while Redis stalls, and names it down', {
    skip: !TEST_REDIS_URL && 'needs a Redis server (REDIS_URL)',
  }, async () => {
    const { hostname, port } = new URL(TEST_REDIS_URL as string);
    const proxy = await startTcpProxy({ host: hostname, port: Number(port || 6379) });
    const t = await createTestApp({ REDIS_URL: proxy.url(TEST_REDIS_URL as string) });
    try {
      proxy.setMode('stall');
      const ready = await within(5000, t.app.inject({ url: '/readyz', headers: host }));
      assert.equal(ready.statusCode, 200, ready.body);
      assert.deepEqual(ready.json().checks, { database: 'up', redis: 'down' });
    } finally {
      proxy.setMode('pass');
      await t.close();
      await proxy.close();
    }
  });
});

describe('readiness while draining', () => {
  it('answers 503 at once once the instance drains, while /healthz and the APIs still answer', async () => {
    const runtime = await createTestRuntime();
    const instance = createInstanceState('serving');
    const app = await buildServer(runtime.http, { instance });
    try {
      assert.equal((await app.inject({ url: '/readyz', headers: host })).statusCode, 200);
      instance.phase = 'draining';
      const ready = await app.inject({ url: '/readyz', headers: host });
      assert.equal(ready.statusCode, 503);
      assert.equal(ready.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.match(String(ready.headers['retry-after']), /^[1-9]\d*$/);
      const body = ready.json();
      assert.equal(body.type, '/problems/service-unavailable');
      assert.equal(body.version, version);
      assert.match(body.detail, /shutting down/);
      assert.equal((await app.inject({ url: '/healthz', headers: host })).statusCode, 200);
      assert.equal((await app.inject({ url: '/openapi.json', headers: host })).statusCode, 200);
    } finally {
      await app.close();
      await runtime.close();
    }
  });

  it('writes its 503 with the shared renderer, like any other error answer of the catalog', async () => {
    const runtime = await createTestRuntime();
    const app = await buildServer(runtime.http, { instance: createInstanceState('draining') });
    // What errors/render.ts writes for the error /readyz answers with, wherever it is asked.
    const renderer = Fastify();
    renderer.decorateRequest('errorCode', null);
    const notReady = new AppError('SERVICE_UNAVAILABLE', {
      detail: 'the instance is shutting down',
      expose: true,
      extensions: { version },
      headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
    });
    renderer.get('/*', (request, reply) => sendProblem(request, reply, notReady));
    try {
      for (const url of ['/readyz', '/readyz/', '/readyz?verbose=1']) {
        const [answered, rendered] = [
          await app.inject({ url, headers: host }),
          await renderer.inject({ url }),
        ];
        assert.equal(answered.statusCode, rendered.statusCode, url);
        for (const name of ['content-type', 'retry-after'])
          assert.equal(answered.headers[name], rendered.headers[name], `${url}: ${name}`);
        assert.deepEqual(answered.json(), rendered.json(), url);
      }
      const accessLines = runtime.logs.lines
        .map((line) => JSON.parse(line) as { msg?: string; route?: string; error?: string })
        .filter((line) => line.msg === 'request completed' && line.route === '/readyz');
      assert.equal(accessLines.length, 3);
      for (const line of accessLines)
        assert.equal(line.error, 'SERVICE_UNAVAILABLE', 'its access line names the code');
    } finally {
      await renderer.close();
      await app.close();
      await runtime.close();
    }
  });
});
