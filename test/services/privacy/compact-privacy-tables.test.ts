import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildServer } from '../../../src/http/build-server.js';
import type { ServiceDeps } from '../../../src/services/deps.js';
import {
  COMPACTED_TABLES,
  compactPrivacyTables,
} from '../../../src/services/privacy/compact-privacy-tables.js';
import { purgePrivacyData } from '../../../src/services/privacy/purge-privacy-data.js';
import {
  findCompactionOwed,
  markCompactionOwed,
  takeCompactionOwed,
} from '../../../src/store/repositories/privacy-compactions.js';
import {
  compactionRows,
  drainPrivacyQueue,
  importReviewsBy,
  type PrivacyTenant,
  privacyClient,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import {
  createTestRuntime,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
} from '../../helpers/test-runtime.js';

const _at = (iso: string) => Date.parse(iso);

/** Every file of a table as PostgreSQL stores it: heap, TOAST heap and every index, each segment. */
async function relationFiles(deps: ServiceDeps, table: string): Promise<{ path: string; bytes: Buffer }[]> {
  const db = deps.store.db;
  const { rows } = await sql<{ oid: number }>`
    select c.oid::int8 as oid from pg_class c where c.oid = ${table}::regclass
    union all select t.reltoastrelid::int8 from pg_class t where t.oid = ${table}::regclass and t.reltoastrelid <> 0
    union all select i.indexrelid::int8 from pg_index i where i.indrelid = ${table}::regclass
    union all select i.indexrelid::int8 from pg_index i join pg_class t on i.indrelid = t.reltoastrelid
      where t.oid = ${table}::regclass`.execute(db);
  const files: { path: string; bytes: Buffer }[] = [];
  for (const { oid } of rows) {
    const path = (
      await sql<{ path: string }>`select pg_relation_filepath(${String(oid)}::regclass) as path`.execute(db)
    ).rows[0]!.path;
    const segments: Buffer[] = [];
    // Files are split into 1 GB segments: path, path.1, path.2, ...
    for (let n = 0; ; n++) {
      const segment = n === 0 ? path : `${path}.${n}`;
      if (!(await fileExists(deps, segment))) break;
      const data = await sql<{ data: Buffer }>`select pg_read_binary_file(${segment}) as data`.execute(db);
      segments.push(data.rows[0]!.data);
    }
    files.push({ path, bytes: Buffer.concat(segments) });
  }
  return files;
}

async function fileExists(deps: ServiceDeps, path: string): Promise<boolean> {
  const { rows } = await sql<{
    size: number | null;
  }>`select (pg_stat_file(${path}, true)).size as size`.execute(deps.store.db);
  return rows[0]?.size != null;
}

describe(`privacy table compaction on ${TEST_DIALECT}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-compaction-'));
  const dbFile = join(dir, 'compaction.db');
  let rt: TestRuntime;
  let app: FastifyInstance;
  let tenant: PrivacyTenant;

  before(async () => {
    // A database file on SQLite, so the test can see what VACUUM does to it.
    rt = await createTestRuntime({}, TEST_DIALECT === 'sqlite' ? { databaseUrl: `sqlite:${dbFile}` } : {});
    app = await buildServer(rt.http);
    await app.ready();
    tenant = await seedPrivacyTenant(rt.deps);
  });

  after(async () => {
    await app.close();
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A person whose every review carries a unique marker, erased by a forget request over HTTP. */
  async function eraseMarkedPerson(count: number) {
    const tag = randomBytes(8).toString('hex');
    const marker = `Compaction marker ${tag}`;
    const control = `Compaction control ${tag}`;
    const erased = { name: marker, authorId: `cm-${tag}`, emailAddress: `cm-${tag}@example.com` };
    await importReviewsBy(rt.deps, erased, { clientName: 'Acme-EN_GB', count, prefix: `cm-${tag}` });
    await importReviewsBy(
      rt.deps,
      { name: control, authorId: `cc-${tag}` },
      { clientName: 'Acme-EN_GB', count, prefix: `cc-${tag}` },
    );
    const created = await privacyClient(app, tenant).post('forget', { authorId: erased.authorId });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(await drainPrivacyQueue(rt.deps), 1);
    const left = await rt.deps.store.db
      .selectFrom('reviews')
      .select('id')
      .where('author_name', '=', marker)
      .execute();
    assert.equal(left.length, 0);
    return { marker: Buffer.from(marker), control: Buffer.from(control) };
  }

  it('on PostgreSQL, erased text stays in the table file until the rewrite, and is gone after it', {
    skip: TEST_DIALECT !== 'postgres',
  }, async (t) => {
    const deps = rt.deps;
    const { marker, control } = await eraseMarkedPerson(40);
    // What autovacuum would do: it frees the space of the deleted rows but leaves their bytes.
    // Maintenance, like the compaction itself: not held to a request's deadline.
    await deps.store.db.connection().execute(async (conn) => {
      await sql`set statement_timeout = 0`.execute(conn);
      await sql`vacuum reviews`.execute(conn);
      await sql`checkpoint`.execute(conn);
      await sql`reset statement_timeout`.execute(conn);
    });

    const before = await relationFiles(deps, 'reviews');
    const heap = before[0]!;
    assert.ok(heap.bytes.length > 0 && heap.bytes.length < 1 << 30);
    assert.ok(heap.bytes.includes(control), 'control not found: the search does not work');
    // The rows are deleted and vacuumed, yet the bytes are still in the heap file.
    assert.ok(
      before.some((f) => f.bytes.includes(marker)),
      'marker not found before the rewrite',
    );
    const oldPaths: string[] = [];
    for (const table of COMPACTED_TABLES)
      oldPaths.push(...(await relationFiles(deps, table)).map((f) => f.path));

    const result = await compactPrivacyTables(deps, { trigger: 'command' });
    assert.ok('id' in result, JSON.stringify(result));
    assert.deepEqual(result.tables, [...COMPACTED_TABLES]);
    assert.ok(result.bytesAfter > 0 && result.bytesAfter <= result.bytesBefore);
    t.diagnostic(
      `bytes ${result.bytesBefore} -> ${result.bytesAfter} in ${result.durationMs} ms ` +
        `(reviews heap was ${heap.bytes.length} bytes)`,
    );

    for (const table of COMPACTED_TABLES) {
      for (const file of await relationFiles(deps, table)) {
        assert.ok(!file.bytes.includes(marker), `${table}: ${file.path} holds the marker`);
        assert.ok(!oldPaths.includes(file.path), `${table}: ${file.path} was not rewritten`);
      }
    }
    const after = await relationFiles(deps, 'reviews');
    assert.ok(after[0]!.bytes.includes(control), 'control lost by the rewrite');
    // The checkpoint after the rewrite unlinked the old files.
    for (const path of oldPaths) assert.equal(await fileExists(deps, path), false, path);

    const [row] = (await compactionRows(deps)).filter((r) => r.id === result.id);
    assert.equal(row?.trigger, 'command');
    assert.equal(row?.tables, COMPACTED_TABLES.join(','));
    assert.equal(row?.bytes_before, result.bytesBefore);
    assert.equal(row?.bytes_after, result.bytesAfter);
    assert.equal(row?.error, null);
    assert.ok(row?.finished_at != null);
    // One info line, without the person.
    const line = rt.logs.lines.find((l) => l.includes('privacy tables compacted'));
    assert.ok(line);
    assert.ok(!rt.logs.text().includes(marker.toString()));
  });

  it('on SQLite, a compaction runs, is recorded, and the file does not grow', {
    skip: TEST_DIALECT !== 'sqlite',
  }, async (t) => {
    const deps = rt.deps;
    await eraseMarkedPerson(200);
    const sizeBefore = statSync(dbFile).size;
    const result = await compactPrivacyTables(deps, { trigger: 'command' });
    assert.ok('id' in result, JSON.stringify(result));
    assert.ok(result.bytesAfter <= result.bytesBefore);
    assert.ok(statSync(dbFile).size <= sizeBefore);
    assert.equal(statSync(dbFile).size, result.bytesAfter);
    // The WAL, which VACUUM filled with a copy of the database, was checkpointed and truncated:
    // what it holds now is the few pages of the compaction's own record.
    const wal = existsSync(`${dbFile}-wal`) ? statSync(`${dbFile}-wal`).size : 0;
    assert.ok(wal <= 32 + 4 * (24 + 4096), `WAL of ${wal} bytes`);
    t.diagnostic(
      `file ${sizeBefore} -> ${statSync(dbFile).size} bytes, WAL ${wal}, in ${result.durationMs} ms`,
    );
    const [row] = (await compactionRows(deps)).filter((r) => r.id === result.id);
    assert.equal(row?.trigger, 'command');
    assert.equal(row?.bytes_after, result.bytesAfter);
    assert.equal(row?.error, null);
  });

  it('keeps an owed mark until a compaction takes it, and a mark made meanwhile stays', async () => {
    const deps = rt.deps;
    const db = deps.store.db;
    await takeCompactionOwed(db);
    assert.equal(await findCompactionOwed(db), null);
    await markCompactionOwed(db, 1000);
    await markCompactionOwed(db, 2000);
    assert.equal(await findCompactionOwed(db), 1000, 'an earlier mark keeps its time');

    // An erasure that completes during the rewrite marks the tables again.
    const store = deps.store;
    const during: (number | null)[] = [];
    const racing: ServiceDeps = {
      ...deps,
      store: {
        ...store,
        async compactTables(tables) {
          during.push(await findCompactionOwed(db));
          await markCompactionOwed(db, 3000);
          return store.compactTables(tables);
        },
      },
    };
    const result = await compactPrivacyTables(racing, { trigger: 'command' });
    assert.ok('id' in result);
    assert.deepEqual(during, [null], 'taken when the compaction started');
    assert.equal(await findCompactionOwed(db), 3000);
    assert.equal(await takeCompactionOwed(db), 3000);
    assert.equal(await takeCompactionOwed(db), null);
  });

  it('records a failed compaction and puts the owed mark back', async () => {
    const deps = rt.deps;
    const db = deps.store.db;
    await takeCompactionOwed(db);
    await markCompactionOwed(db, 4000);
    const failing: ServiceDeps = {
      ...deps,
      store: {
        ...deps.store,
        async compactTables() {
          throw new Error('could not extend file: No space left on device');
        },
      },
    };
    await assert.rejects(compactPrivacyTables(failing, { trigger: 'command' }), /No space left/);
    assert.equal(await findCompactionOwed(db), 4000);
    const last = (await compactionRows(deps)).at(-1);
    assert.equal(last?.error, 'could not extend file: No space left on device');
    assert.ok(last?.finished_at != null);
    assert.equal(last?.bytes_after, null);
  });

  it('purging expired exports or old requests marks a compaction owed', async () => {
    const deps = rt.deps;
    const db = deps.store.db;
    await takeCompactionOwed(db);
    // Nothing to purge today: no mark.
    await purgePrivacyData(deps);
    assert.equal(await findCompactionOwed(db), null);
    // Pretend a request completed long ago, so it is past retention.
    const completed = await db
      .selectFrom('privacy_requests')
      .select('id')
      .where('status', '=', 'COMPLETED')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('privacy_requests')
      .set({ submitted_at: 1, completed_at: 1 })
      .where('id', '=', completed.id)
      .execute();
    const purged = await purgePrivacyData(deps);
    assert.ok(purged.requests >= 1);
    assert.equal(typeof (await findCompactionOwed(db)), 'number');
  });

  it('skips, changing nothing, while another instance compacts the same schema', {
    skip: TEST_DIALECT !== 'postgres',
  }, async () => {
    const deps = rt.deps;
    const db = deps.store.db;
    await takeCompactionOwed(db);
    await markCompactionOwed(db, 5000);
    const rowsBefore = (await compactionRows(deps)).length;
    const other = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await other.connect();
    try {
      const key = [0x72706163, rt.schema];
      await other.query('select pg_advisory_lock($1::int4, hashtext($2))', key);
      const result = await compactPrivacyTables(deps, { trigger: 'command' });
      assert.deepEqual(result, { skipped: 'another instance is compacting' });
      assert.equal(await findCompactionOwed(db), 5000);
      assert.equal((await compactionRows(deps)).length, rowsBefore);
      await other.query('select pg_advisory_unlock($1::int4, hashtext($2))', key);
      assert.ok('id' in (await compactPrivacyTables(deps, { trigger: 'command' })));
    } finally {
      await other.end();
    }
  });
});
