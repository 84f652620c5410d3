import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

// Another process on the same SQLite file (a second instance, an `rpa` command, a backup tool)
// can hold a read open across a scrub. While it does, the WAL cannot be emptied, and deleted
// bytes the WAL holds stay there: the scrub must say so, not wait out the busy timeout with the
// event loop blocked and then report success.
describe(`scrubbing freed pages on ${TEST_DIALECT}`, () => {
  let store: Store;
  let dir: string | undefined;
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
  const file = () => join(dir ?? '', 'scrub.db');

  before(async () => {
    dir = TEST_DIALECT === 'sqlite' ? mkdtempSync(join(tmpdir(), 'rpa-scrub-')) : undefined;
    store = await openStore(dir ? `sqlite:${file()}` : TEST_DATABASE_URL, schema ? { schema } : {});
    await migrateToLatest(store.db, store.schema);
  });
  after(async () => {
    await store.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  const bytesOnDisk = () =>
    Buffer.concat([file(), `${file()}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));

  /**
   * Starts another process that takes the write lock and holds it a moment, and writes from this
   * one meanwhile: the write must wait for the lock (busy_timeout), not fail with SQLITE_BUSY.
   */
  async function writeWhileAnotherProcessHoldsTheLock(key: string): Promise<number> {
    const child = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(process.argv[1]);
         db.exec('begin immediate');
         process.stdout.write('locked\\n');
         setTimeout(() => { db.exec('commit'); db.close(); }, 300);`,
        file(),
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = once(child, 'exit');
    await once(child.stdout, 'data');
    await store.db.insertInto('limit_counters').values({ key, hits: 1, window_end: 1 }).execute();
    await exited;
    const rows = await store.db.selectFrom('limit_counters').select('key').where('key', '=', key).execute();
    return rows.length;
  }

  it('reports success on PostgreSQL, whose deleted rows leave only by compaction', {
    skip: TEST_DIALECT !== 'postgres',
  }, async () => {
    assert.equal(await store.scrubFreedPages(), true);
  });

  it('reports a WAL that another connection keeps from being emptied, and empties it once that read ends', {
    skip: TEST_DIALECT !== 'sqlite' && 'SQLite only: PostgreSQL has no WAL file of its own to scrub',
  }, async () => {
    const marker = 'scrub-marker-4f1c9a';
    await store.db.insertInto('limit_counters').values({ key: marker, hits: 1, window_end: 1 }).execute();
    assert.equal(await store.scrubFreedPages(), true, 'nothing else reads: the WAL is emptied');
    await store.db
      .insertInto('limit_counters')
      .values({ key: marker, hits: 2, window_end: 2 })
      .onConflict((oc) => oc.column('key').doUpdateSet({ hits: 2 }))
      .execute();

    // A reader in another connection whose snapshot includes the WAL's frames.
    const other = new SqliteDatabase(file());
    try {
      other.exec('begin');
      assert.deepEqual(other.prepare('select count(*) as n from limit_counters').get(), { n: 1 });
      await store.db.deleteFrom('limit_counters').where('key', '=', marker).execute();

      assert.equal(await store.scrubFreedPages(), false, 'the open read keeps the WAL');
      assert.ok(statSync(`${file()}-wal`).size > 0);
      assert.ok(bytesOnDisk().includes(Buffer.from(marker)), 'the deleted row is still on disk');

      // The scrub did not wait for the lock; this process's statements still do.
      assert.equal(await writeWhileAnotherProcessHoldsTheLock('after-refused-scrub'), 1);

      other.exec('commit');
      assert.equal(await store.scrubFreedPages(), true);
      assert.equal(statSync(`${file()}-wal`).size, 0, 'the WAL holds nothing once scrubbed');
      assert.ok(!bytesOnDisk().includes(Buffer.from(marker)), 'the deleted row left the files');
    } finally {
      other.close();
    }
  });
});
