import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, type Migration, Migrator, sql } from 'kysely';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { preparedQuery } from '../../src/store/prepared-query.js';
import { ReadBatchingSqliteDialect } from '../../src/store/read-batching-sqlite-dialect.js';
import { allowDirectReads } from '../../src/store/read-batching-sqlite-driver.js';
import type { Database } from '../../src/store/schema.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

/** Lets the event loop finish its turn (where SQLite's batched reads run) `n` times. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Whether `promise` has settled by now, without waiting for it. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  return (
    (await Promise.race([
      promise.then(
        () => 'done',
        () => 'done',
      ),
      Promise.resolve(pending),
    ])) !== pending
  );
}

// Two stores on one database, as two instances, or a server and the `rpa` CLI, share one: what
// a read sees must not depend on which process committed what it reads.
describe(`reads outside transactions on ${TEST_DIALECT}`, () => {
  let a: Store;
  let b: Store;
  let dir: string | undefined;
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;

  before(async () => {
    // A file, not memory: two SQLite connections share a database only through one (in WAL mode).
    dir = TEST_DIALECT === 'sqlite' ? mkdtempSync(join(tmpdir(), 'rpa-reads-')) : undefined;
    const url = dir ? `sqlite:${join(dir, 'reads.db')}` : TEST_DATABASE_URL;
    a = await openStore(url, schema ? { schema } : {});
    await migrateToLatest(a.db, a.schema);
    b = await openStore(url, schema ? { schema } : {});
  });
  after(async () => {
    await a.close();
    await b.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  const insert = (store: Store | Kysely<Database>, key: string) =>
    ('db' in store ? store.db : store)
      .insertInto('limit_counters')
      .values({ key, hits: 1, window_end: 1 })
      .execute();
  const count = async (db: Kysely<Database>, key: string) => {
    const rows = await sql<{
      n: number | string;
    }>`select count(*) as n from limit_counters where key = ${key}`.execute(db);
    return Number(rows.rows[0]?.n);
  };

  it('sees every commit made before it was asked for, by another connection too, whatever else is asked in the same turn', async () => {
    const before = count(a.db, 'r1');
    await insert(b, 'r1');
    const afterCommit = count(a.db, 'r1');
    assert.equal(await afterCommit, 1);
    // Asked while the other connection committed: either state is a true answer for it.
    assert.ok([0, 1].includes(await before));

    await insert(a, 'r1b');
    assert.equal(await count(b.db, 'r1b'), 1, 'a commit of this connection is seen by the other');
    assert.equal(await count(a.db, 'r1b'), 1, 'and by the connection that made it');
  });

  it('never sees what an open transaction of the same store has written', async () => {
    const trx = await a.db.startTransaction().execute();
    await insert(trx, 'r2');
    const read = count(a.db, 'r2');
    await turns(3);
    await trx.rollback().execute();
    assert.equal(await read, 0);
  });

  it('answers a read that fails with its own error and the reads asked with it with their rows', async () => {
    await insert(a, 'r3');
    const failing =
      TEST_DIALECT === 'sqlite'
        ? sql`select json_extract('not json', '$') as v`
        : sql`select 'not a number'::int as v`;
    const [first, bad, last] = await Promise.allSettled([
      count(a.db, 'r3'),
      failing.execute(a.db),
      count(a.db, 'r3'),
    ]);
    assert.deepEqual(first, { status: 'fulfilled', value: 1 });
    assert.equal(bad.status, 'rejected');
    assert.match(String(bad.reason), TEST_DIALECT === 'sqlite' ? /malformed JSON/ : /invalid input syntax/);
    assert.deepEqual(last, { status: 'fulfilled', value: 1 });
  });

  it('commits a write that returns rows at once, outside any read it is asked with', async () => {
    const reading = count(a.db, 'r4');
    const inserted = await a.db
      .insertInto('limit_counters')
      .values({ key: 'r4', hits: 1, window_end: 1 })
      .returning('key')
      .execute();
    assert.deepEqual(inserted, [{ key: 'r4' }]);
    assert.equal(await count(b.db, 'r4'), 1);
    assert.ok([0, 1].includes(await reading));
  });

  it('scrubs the WAL only once no transaction of this process is open, and then empties it', {
    skip: TEST_DIALECT !== 'sqlite' && 'SQLite only: PostgreSQL has no WAL file of its own to scrub',
  }, async () => {
    const wal = join(dir ?? '', 'reads.db-wal');
    const trx = await a.db.startTransaction().execute();
    await insert(trx, 'r5');
    const scrub = a.scrubFreedPages();
    await turns(3);
    assert.equal(await settled(scrub), false, 'the scrub waits for the open transaction');
    await trx.commit().execute();
    await scrub;
    assert.equal(statSync(wal).size, 0, 'the WAL holds nothing once scrubbed');
    assert.equal(await count(b.db, 'r5'), 1, 'what it held is in the database file');
  });
});

describe('SQLite reads asked in one turn of the event loop', () => {
  let raw: SqliteDatabase.Database;
  let db: Kysely<Database>;

  before(() => {
    raw = new SqliteDatabase(':memory:');
    // Lets a query report whether it ran inside a transaction.
    raw.function('in_transaction', () => (raw.inTransaction ? 1 : 0));
    raw.exec('create table t (id integer primary key, v text)');
    db = new Kysely<Database>({ dialect: new ReadBatchingSqliteDialect(raw, (text) => raw.prepare(text)) });
  });
  after(async () => {
    await db.destroy();
  });

  const inTransaction = async (on: Kysely<Database> = db) =>
    (await sql<{ t: number }>`select in_transaction() as t`.execute(on)).rows[0]?.t;

  it('run together in one read transaction', async () => {
    assert.deepEqual(await Promise.all([inTransaction(), inTransaction(), inTransaction()]), [1, 1, 1]);
    assert.equal(raw.inTransaction, false, 'which has ended once they are answered');
  });

  it('run alone, with no transaction around, when only one is asked', async () => {
    assert.equal(await inTransaction(), 0);
  });

  it('run inside the transaction that asks them, seeing its writes', async () => {
    await db.transaction().execute(async (trx) => {
      await sql`insert into t (id, v) values (1, 'x')`.execute(trx);
      assert.equal(await inTransaction(trx), 1);
      assert.equal((await sql<{ v: string }>`select v from t where id = 1`.execute(trx)).rows[0]?.v, 'x');
    });
    assert.equal((await sql<{ v: string }>`select v from t where id = 1`.execute(db)).rows[0]?.v, 'x');
  });

  it('leave out a write that returns rows, which commits on its own', async () => {
    const [read, write] = await Promise.all([
      inTransaction(),
      sql<{ t: number }>`insert into t (id, v) values (3, 'z') returning in_transaction() as t`.execute(db),
      inTransaction(),
    ]);
    assert.equal(read, 1, 'the reads ran together');
    assert.deepEqual(write.rows, [{ t: 0 }]);
  });

  it('wait for a transaction that changed the schema they read, and read what it left', async () => {
    raw.exec('create table gone (id integer primary key); insert into gone values (7)');
    const trx = await db.startTransaction().execute();
    await sql`drop table gone`.execute(trx);
    const read = sql<{ id: number }>`select id from gone`.execute(db);
    await turns(3);
    assert.equal(await settled(read), false);
    await trx.rollback().execute();
    assert.deepEqual((await read).rows, [{ id: 7 }]);
  });

  it('wait while a transaction is open, and are answered once it has ended', async () => {
    const trx = await db.startTransaction().execute();
    await sql`insert into t (id, v) values (2, 'y')`.execute(trx);
    const read = sql<{ n: number }>`select count(*) as n from t where id = 2`.execute(db);
    await turns(3);
    assert.equal(await settled(read), false);
    await trx.rollback().execute();
    assert.equal((await read).rows[0]?.n, 0);
  });
});

// Prepared queries made on a store's own handle skip Kysely's executor (prepared-query.ts): the
// same rules must hold for them, and a handle with a plugin must still see its plugin's results.
describe('SQLite prepared reads made on the store handle itself', () => {
  let raw: SqliteDatabase.Database;
  let db: Kysely<Database>;

  before(() => {
    raw = new SqliteDatabase(':memory:');
    raw.function('in_transaction', () => (raw.inTransaction ? 1 : 0));
    raw.exec('create table limit_counters (key text primary key, hits integer, window_end integer)');
    raw.exec("insert into limit_counters values ('k', 1, 0)");
    const dialect = new ReadBatchingSqliteDialect(raw, (text) => raw.prepare(text));
    db = new Kysely<Database>({ dialect });
    allowDirectReads(db, dialect.driver);
  });
  after(async () => {
    await db.destroy();
  });

  const hits = preparedQuery((db, p: { key: string }) =>
    db
      .selectFrom('limit_counters')
      .select(['hits', sql<number>`in_transaction()`.as('t')])
      .where('key', '=', p.key),
  );
  const bump = preparedQuery((db, p: { key: string }) =>
    db
      .updateTable('limit_counters')
      .set((eb) => ({ hits: eb('hits', '+', 1) }))
      .where('key', '=', p.key),
  );

  it('run together in one read transaction, like reads built per call', async () => {
    const rows = await Promise.all([hits.execute(db, { key: 'k' }), hits.execute(db, { key: 'k' })]);
    assert.deepEqual(rows, [[{ hits: 1, t: 1 }], [{ hits: 1, t: 1 }]]);
    assert.equal(raw.inTransaction, false);
  });

  it('leave a prepared write to run as a write, reporting what it changed', async () => {
    const [first, second, written] = await Promise.all([
      hits.executeTakeFirst(db, { key: 'k' }),
      hits.executeTakeFirst(db, { key: 'k' }),
      bump.executeRaw(db, { key: 'k' }),
    ]);
    assert.deepEqual([first?.t, second?.t], [1, 1], 'the reads ran in their batch');
    assert.equal(written.numAffectedRows, 1n);
    assert.equal((await hits.executeTakeFirst(db, { key: 'k' }))?.hits, 2);
    await bump.executeRaw(db, { key: 'k' });
    assert.equal((await hits.executeTakeFirst(db, { key: 'k' }))?.hits, 3);
  });

  it('wait while a transaction is open, and read inside the one that asks them', async () => {
    const trx = await db.startTransaction().execute();
    await bump.executeRaw(trx, { key: 'k' });
    assert.equal((await hits.executeTakeFirst(trx, { key: 'k' }))?.hits, 4, 'the transaction sees its write');
    const outside = hits.executeTakeFirst(db, { key: 'k' });
    await turns(3);
    assert.equal(await settled(outside), false);
    await trx.rollback().execute();
    assert.equal((await outside)?.hits, 3);
  });

  it('go through Kysely when made on a handle with a plugin, which sees their results', async () => {
    const seen: unknown[] = [];
    const withPlugin = db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        seen.push(...args.result.rows);
        return args.result;
      },
    });
    assert.deepEqual(await hits.execute(withPlugin, { key: 'k' }), [{ hits: 3, t: 0 }]);
    assert.deepEqual(seen, [{ hits: 3, t: 0 }]);
  });
});

describe('SQLite migrations run at once in one process', () => {
  const provider = {
    async getMigrations(): Promise<Record<string, Migration>> {
      return { '001': { up: (db) => db.schema.createTable('a').addColumn('x', 'integer').execute() } };
    },
  };
  const run = (db: Kysely<unknown>) =>
    new Migrator({ db, provider })
      .migrateToLatest()
      .then((r) =>
        r.error ? `error: ${String(r.error)}` : (r.results ?? []).map((m) => m.status).join() || 'nothing',
      );

  it('apply each migration once, whichever reads its state first', async () => {
    // The second run starts at every offset from the first within a few turns of the loop: the
    // one where both read "nothing applied yet" before either writes is what the lock prevents.
    for (let immediates = 0; immediates < 6; immediates++) {
      for (let microtasks = 0; microtasks < 40; microtasks += 2) {
        const raw = new SqliteDatabase(':memory:');
        const db = new Kysely<unknown>({
          dialect: new ReadBatchingSqliteDialect(raw, (text) => raw.prepare(text)),
        });
        try {
          await new Migrator({ db, provider: { getMigrations: async () => ({}) } }).migrateToLatest();
          const first = run(db);
          await turns(immediates);
          for (let i = 0; i < microtasks; i++) await null;
          assert.deepEqual(
            await Promise.all([first, run(db)]),
            ['Success', 'nothing'],
            `second run ${immediates} turns and ${microtasks} microtasks after the first`,
          );
        } finally {
          await db.destroy();
        }
      }
    }
  });
});
