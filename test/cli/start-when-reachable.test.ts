import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Migrator, sql } from 'kysely';
import { startWhenReachable } from '../../src/cli/start-when-reachable.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createInstanceState } from '../../src/services/health/instance-state.js';
import { openStore } from '../../src/store/database.js';
import { migrateToLatest, migrations } from '../../src/store/migrate.js';
import { eventually } from '../helpers/eventually.js';
import { LogCapture } from '../helpers/test-runtime.js';

const names = Object.keys(migrations);
const last = names.at(-1) as string;

describe('starting rpa serve and rpa worker without migrations on start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-start-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  function setup(file: string) {
    const databaseUrl = `sqlite:${join(dir, file)}`;
    const config = loadConfig({ DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'false', LOG_LEVEL: 'info' });
    const logs = new LogCapture();
    return { databaseUrl, config, logs, logger: createLogger('info', logs), instance: createInstanceState() };
  }

  it('waits on a schema older than it needs, naming the pending migrations, and starts once migrated', async () => {
    const { databaseUrl, config, logs, logger, instance } = setup('older.db');
    const store = await openStore(databaseUrl);
    const migrator = new Migrator({
      db: store.db,
      provider: { getMigrations: async () => ({ ...migrations }) },
    });
    assert.equal((await migrator.migrateTo(names.at(-2) as string)).error, undefined);
    let stopping = false;
    const started = startWhenReachable(config, logger, instance, () => stopping);
    try {
      await eventually(async () => assert.deepEqual(instance.blocker?.pendingMigrations, [last]));
      assert.match(instance.blocker?.detail ?? '', /1 database migration is pending; run `rpa migrate`/);
      await migrateToLatest(store.db);
      const runtime = await started;
      assert.ok(runtime, 'started');
      assert.equal(instance.blocker, null);
      await runtime.close();
      const lines = logs.lines.map((l) => JSON.parse(l));
      const waits = lines.filter((l) => /^not started: /.test(l.msg));
      assert.equal(waits.length, 1, 'one line for the whole wait');
      assert.deepEqual(waits[0].pendingMigrations, [last]);
      assert.match(waits[0].msg, /rpa migrate/);
    } finally {
      stopping = true;
      await started.catch(() => null);
      await store.close();
    }
  });

  it('serves a schema newer than it knows: migrations it does not list are no reason to wait', async () => {
    const { databaseUrl, config, logger, instance } = setup('newer.db');
    const store = await openStore(databaseUrl);
    await migrateToLatest(store.db);
    await sql`insert into kysely_migration (name, timestamp) values ('2999-01-01-01-later', '2999-01-01T00:00:00.000Z')`.execute(
      store.db,
    );
    await store.close();
    const runtime = await startWhenReachable(config, logger, instance, () => false);
    assert.ok(runtime);
    await runtime.close();
  });

  it('waits on a database with no tables at all, saying so, and stops waiting when told', async () => {
    const { config, logs, logger, instance } = setup('empty.db');
    let stopping = false;
    const started = startWhenReachable(config, logger, instance, () => stopping);
    await eventually(async () =>
      assert.match(instance.blocker?.detail ?? '', /no tables yet; run `rpa migrate`/),
    );
    stopping = true;
    assert.equal(await started, null);
    assert.match(logs.text(), /not started: the database has no tables yet/);
  });

  it('ends on a SQLite file it cannot open: a path, not a server that comes back', async () => {
    const config = loadConfig({ DATABASE_URL: `sqlite:${dir}`, LOG_LEVEL: 'info' });
    const logs = new LogCapture();
    await assert.rejects(
      startWhenReachable(config, createLogger('info', logs), createInstanceState(), () => false),
      /DATABASE_URL: cannot open/,
    );
  });
});
