import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest, migrations, pendingMigrations, schemaState } from '../../src/store/migrate.js';
import { contractingChanges, schemaShape } from '../helpers/schema-shape.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

describe(`migrations on ${TEST_DIALECT}`, () => {
  let store: Store;
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;

  before(async () => {
    store = await openStore(TEST_DATABASE_URL, schema ? { schema } : {});
  });
  after(async () => {
    await store.close();
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('names every migration with a date prefix, in order', () => {
    const names = Object.keys(migrations);
    assert.ok(names.length > 0);
    for (const n of names) assert.match(n, /^\d{4}-\d{2}-\d{2}-\d{2}-[a-z0-9-]+$/);
    assert.deepEqual(names, [...names].sort());
  });

  it('reports every migration pending, and none unknown, on an empty database', async () => {
    assert.deepEqual(await schemaState(store.db, store.schema), {
      pending: Object.keys(migrations),
      unknown: [],
    });
  });

  it('applies all migrations up, then is a no-op', async () => {
    const first = await migrateToLatest(store.db, store.schema);
    assert.deepEqual(first.applied, Object.keys(migrations));
    const second = await migrateToLatest(store.db, store.schema);
    assert.deepEqual(second.applied, []);
  });

  it('creates the tables the services use', async () => {
    const tables = (await store.db.introspection.getTables()).map((t) => t.name);
    for (const t of [
      'clients',
      'applications',
      'application_secrets',
      'application_grants',
      'passkeys',
      'token_signing_keys',
      'token_denials',
      'reviews',
      'review_identifiers',
      'response_authors',
      'client_responses',
      'instance_settings',
      'privacy_requests',
      'privacy_pending_keys',
      'privacy_exports',
      'limit_counters',
      'privacy_suppressions',
      'privacy_suppression_lifts',
      'privacy_compactions',
      'audit_events',
      'webhook_endpoints',
      'webhook_subscriptions',
      'webhook_secrets',
      'webhook_messages',
      'webhook_deliveries',
    ]) {
      assert.ok(tables.includes(t), `missing table ${t}`);
    }
    // Access tokens are signed, not stored (docs/design.md, Access tokens).
    assert.ok(!tables.includes('access_tokens'));
  });

  it('enforces the environment check and unique client names per environment', async () => {
    const row = { id: 'c1', environment: 'production' as const, name: 'Acme', created_at: 1 };
    await store.db.insertInto('clients').values(row).execute();
    await assert.rejects(
      store.db
        .insertInto('clients')
        .values({ ...row, id: 'c2' })
        .execute(),
    );
    await store.db
      .insertInto('clients')
      .values({ ...row, id: 'c3', environment: 'staging' })
      .execute();
    await assert.rejects(
      sql`insert into clients (id, environment, name, created_at) values ('c4', 'qa', 'X', 1)`.execute(
        store.db,
      ),
    );
  });

  it('reads epoch-millisecond columns back as numbers', async () => {
    const ms = Date.UTC(2030, 0, 1, 12, 0, 0, 123);
    await store.db
      .insertInto('clients')
      .values({ id: 'c5', environment: 'production', name: 'Time', created_at: ms })
      .execute();
    const r = await store.db
      .selectFrom('clients')
      .select('created_at')
      .where('id', '=', 'c5')
      .executeTakeFirstOrThrow();
    assert.strictEqual(r.created_at, ms);
  });

  // The previous release keeps serving, and may restart, while the next one's migrations are applied.
  it('serves a database a newer release migrated further: applies nothing and does not fail', async () => {
    const newer = '2999-01-01-01-next-release';
    const last = Object.keys(migrations).at(-1) ?? '';
    const applied = async (name: string) =>
      sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
        store.db,
      );
    await applied(newer);
    try {
      assert.deepEqual(await schemaState(store.db, store.schema), { pending: [], unknown: [newer] });
      assert.deepEqual(await pendingMigrations(store.db, store.schema), []);
      assert.deepEqual(await migrateToLatest(store.db, store.schema), { applied: [] });
      // Not a newer history of this code's: one of its own is missing, and it applies nothing.
      await sql`delete from kysely_migration where name = ${last}`.execute(store.db);
      assert.deepEqual(await schemaState(store.db, store.schema), { pending: [last], unknown: [newer] });
      await assert.rejects(
        migrateToLatest(store.db, store.schema),
        /does not know \(2999-01-01-01-next-release\)/,
      );
    } finally {
      await sql`delete from kysely_migration where name in (${newer}, ${last})`.execute(store.db);
      await applied(last);
    }
    assert.deepEqual(await schemaState(store.db, store.schema), { pending: [], unknown: [] });
  });
});

describe(`migrations one at a time on ${TEST_DIALECT}: expand, then contract`, () => {
  let store: Store;
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;

  before(async () => {
    store = await openStore(TEST_DATABASE_URL, schema ? { schema } : {});
  });
  after(async () => {
    await store.close();
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  // A release's migrations run while the previous release serves (docs/operations.md, "Health,
  // readiness and migrations"): only a step marked as a contract step may take away what it reads.
  it('changes nothing the previous release relies on, except in steps marked as contract steps', async () => {
    const migrator = new Migrator({
      db: store.db,
      provider: { getMigrations: async () => ({ ...migrations }) },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const unmarked: string[] = [];
    const markedNeedlessly: string[] = [];
    let before = await schemaShape(store.db);
    for (const [name, migration] of Object.entries(migrations)) {
      const { error, results } = await migrator.migrateUp();
      if (error) throw error;
      assert.deepEqual(
        results?.map((r) => [r.migrationName, r.status]),
        [[name, 'Success']],
      );
      const after = await schemaShape(store.db);
      const changes = contractingChanges(before, after);
      if (changes.length > 0 && migration.contract !== true) unmarked.push(`${name}: ${changes.join(', ')}`);
      if (changes.length === 0 && migration.contract === true) markedNeedlessly.push(name);
      before = after;
    }
    assert.deepEqual(unmarked, [], 'take these away in a later release, in a migration marked `contract`');
    assert.deepEqual(markedNeedlessly, [], 'these take nothing away: an expansion is not marked');
  });

  it('sees a dropped column, a renamed table, a changed type and a new mandatory column as contracting', async () => {
    const before = await schemaShape(store.db);
    await sql`alter table reviews drop column author_vimeo`.execute(store.db);
    await sql`alter table audit_events rename to audit_log`.execute(store.db);
    await sql`alter table clients add column note text`.execute(store.db);
    await sql`alter table clients add column tier text not null default 'basic'`.execute(store.db);
    const expected = ['drops column reviews.author_vimeo', 'drops table audit_events'];
    if (TEST_DIALECT === 'postgres') {
      await sql`alter table reviews alter column rating type bigint`.execute(store.db);
      await sql`alter table reviews alter column title set not null`.execute(store.db);
      await sql`alter table reviews add column grade int not null`.execute(store.db);
      expected.push(
        'changes the type of reviews.rating (int4 to int8)',
        'makes reviews.title not null',
        'adds reviews.grade not null without a default',
      );
    }
    const after = await schemaShape(store.db);
    assert.deepEqual(contractingChanges(before, after).sort(), expected.sort());
  });
});

describe('migrations on postgres while other schemas come and go', {
  skip: TEST_DIALECT !== 'postgres',
}, () => {
  // Test suites and other tenants of a shared database create and drop schemas at any time; a
  // migration must not fail because a schema it does not use vanished while it looked at the
  // catalogs (the cause of a "schema ... does not exist" failure seen in CI).
  it('applies every migration to fresh schemas while another session churns schemas', async () => {
    const churner = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await churner.connect();
    let stop = false;
    const churn = (async () => {
      for (let i = 0; !stop; i++) {
        const name = `${uniqueSchema()}_churn_${i}`;
        await churner.query(`create schema ${name}`);
        await churner.query(`create table ${name}.t (x int)`);
        await churner.query(`drop schema ${name} cascade`);
      }
    })();
    const failures: string[] = [];
    try {
      for (let round = 0; round < 20; round++) {
        const schema = uniqueSchema();
        const store = await openStore(TEST_DATABASE_URL, { schema });
        try {
          const outcome = await migrateToLatest(store.db, schema);
          assert.deepEqual(outcome.applied, Object.keys(migrations));
        } catch (err) {
          failures.push((err as Error).message);
        } finally {
          await store.close();
          await dropSchema(TEST_DATABASE_URL, schema);
        }
      }
    } finally {
      stop = true;
      await churn;
      await churner.end();
    }
    assert.deepEqual(failures, []);
  });
});
