import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type MigrationProvider, Migrator } from 'kysely';
import { buildServer } from '../../src/http/build-server.js';
import { openStore } from '../../src/store/database.js';
import { migrateToLatest, migrations } from '../../src/store/migrate.js';
import {
  createTestApp,
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
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
