import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Selectable, sql } from 'kysely';
import pg from 'pg';
import { ConfigError, loadConfig } from '../../../src/config.js';
import {
  type CompactionState,
  isCompactionDue,
  isInWindow,
  windowOpenedAt,
} from '../../../src/domain/compaction-window.js';
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
import type { PrivacyCompactionsTable } from '../../../src/store/schema.js';
import { startPrivacyWorker } from '../../../src/worker/privacy-worker.js';
import {
  drainPrivacyQueue,
  importReviewsBy,
  type PrivacyTenant,
  privacyClient,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { rpaAgainst } from '../../helpers/rpa-cli.js';
import {
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
  uniqueSchema,
} from '../../helpers/test-runtime.js';

const at = (iso: string) => Date.parse(iso);
const window = (startMinute: number, endMinute: number) => ({ startMinute, endMinute });

describe('compaction window (UTC)', () => {
  it('contains its start and not its end', () => {
    const w = window(120, 300); // 02:00-05:00
    assert.equal(isInWindow(w, at('2026-06-01T01:59:59Z')), false);
    assert.equal(isInWindow(w, at('2026-06-01T02:00:00Z')), true);
    assert.equal(isInWindow(w, at('2026-06-01T04:59:59Z')), true);
    assert.equal(isInWindow(w, at('2026-06-01T05:00:00Z')), false);
  });

  it('wraps midnight when the end is not after the start', () => {
    const w = window(23 * 60, 60); // 23:00-01:00
    assert.equal(isInWindow(w, at('2026-06-01T22:59:00Z')), false);
    assert.equal(isInWindow(w, at('2026-06-01T23:00:00Z')), true);
    assert.equal(isInWindow(w, at('2026-06-02T00:30:00Z')), true);
    assert.equal(isInWindow(w, at('2026-06-02T01:00:00Z')), false);
    // The occurrence that contains 00:30 opened the day before.
    assert.equal(windowOpenedAt(w, at('2026-06-02T00:30:00Z')), at('2026-06-01T23:00:00Z'));
    assert.equal(windowOpenedAt(w, at('2026-06-01T23:30:00Z')), at('2026-06-01T23:00:00Z'));
    assert.equal(windowOpenedAt(w, at('2026-06-01T12:00:00Z')), null);
  });

  it('00:00-24:00 is any time', () => {
    const w = window(0, 1440);
    for (let minute = 0; minute < 1440; minute += 7) {
      assert.equal(isInWindow(w, at('2026-06-01T00:00:00Z') + minute * 60_000), true);
    }
  });

  it('decides when the worker compacts', () => {
    const base: CompactionState = {
      mode: 'after-erasure',
      window: window(120, 300),
      now: at('2026-06-01T03:00:00Z'),
      owedSince: at('2026-05-31T18:00:00Z'),
      lastStartedAt: null,
    };
    assert.equal(isCompactionDue(base), true);
    assert.equal(isCompactionDue({ ...base, mode: 'off' }), false);
    assert.equal(isCompactionDue({ ...base, owedSince: null }), false, 'nothing erased');
    assert.equal(isCompactionDue({ ...base, now: at('2026-06-01T06:00:00Z') }), false, 'outside the window');
    // after-erasure compacts again as soon as another erasure is owed.
    assert.equal(isCompactionDue({ ...base, lastStartedAt: at('2026-06-01T02:10:00Z') }), true);

    const daily = { ...base, mode: 'daily' as const };
    assert.equal(isCompactionDue(daily), true);
    assert.equal(
      isCompactionDue({ ...daily, lastStartedAt: at('2026-06-01T02:10:00Z') }),
      false,
      'done today',
    );
    assert.equal(isCompactionDue({ ...daily, lastStartedAt: at('2026-05-31T02:10:00Z') }), true, 'yesterday');
    assert.equal(isCompactionDue({ ...daily, owedSince: null }), false);
    // A window wrapping midnight is one occurrence: 23:30 and the next 00:30 do not both compact.
    const wrapped = { ...daily, window: window(23 * 60, 60), lastStartedAt: at('2026-06-01T23:30:00Z') };
    assert.equal(isCompactionDue({ ...wrapped, now: at('2026-06-02T00:30:00Z') }), false);
    assert.equal(isCompactionDue({ ...wrapped, now: at('2026-06-02T23:05:00Z') }), true);
  });
});

describe('PRIVACY_COMPACT and PRIVACY_COMPACT_WINDOW', () => {
  it('default to off and 02:00-05:00 UTC', () => {
    const c = loadConfig({});
    assert.deepEqual(c.privacy.compact, { mode: 'off', window: { startMinute: 120, endMinute: 300 } });
    assert.ok(Object.isFrozen(c.privacy.compact.window));
  });

  it('read the mode and the window, which may wrap midnight or be the whole day', () => {
    const read = (mode: string, win: string) =>
      loadConfig({ PRIVACY_COMPACT: mode, PRIVACY_COMPACT_WINDOW: win }).privacy.compact;
    assert.deepEqual(read('after-erasure', '23:00-01:00'), {
      mode: 'after-erasure',
      window: { startMinute: 1380, endMinute: 60 },
    });
    assert.deepEqual(read('daily', '00:00-24:00').window, { startMinute: 0, endMinute: 1440 });
    assert.deepEqual(read('off', ' 01:30-01:45 ').window, { startMinute: 90, endMinute: 105 });
  });

  const bad: [Record<string, string>, string][] = [
    [{ PRIVACY_COMPACT: 'weekly' }, 'PRIVACY_COMPACT'],
    [{ PRIVACY_COMPACT: 'true' }, 'PRIVACY_COMPACT'],
    [{ PRIVACY_COMPACT_WINDOW: '2-5' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '02:00' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '02:00-05:60' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '25:00-05:00' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '24:00-05:00' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '02:00-24:30' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '03:00-03:00' }, 'PRIVACY_COMPACT_WINDOW'],
  ];
  for (const [env, variable] of bad) {
    it(`names ${variable} when its value is bad (${JSON.stringify(env)})`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && err.variable === variable,
      );
    });
  }
});

type CompactionRow = Selectable<PrivacyCompactionsTable>;

const compactionRows = (deps: ServiceDeps): Promise<CompactionRow[]> =>
  deps.store.db.selectFrom('privacy_compactions').selectAll().orderBy('started_at').execute();

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
    await sql`vacuum reviews`.execute(deps.store.db);
    await sql`checkpoint`.execute(deps.store.db);

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

describe(`the worker's compaction on ${TEST_DIALECT}`, () => {
  let now = at('2026-06-01T10:00:00Z');
  const clock = () => now;

  /** One housekeeping round: stop() waits for the lane that started it. */
  async function housekeeping(deps: ServiceDeps) {
    await startPrivacyWorker(deps, { owner: 'compaction-test' }).stop();
  }

  async function withWorkerRuntime(
    env: Record<string, string>,
    fn: (deps: ServiceDeps, rt: TestRuntime) => Promise<void>,
  ) {
    const rt = await createTestRuntime({ WORKER_CONCURRENCY: '1', ...env }, { clock });
    try {
      await fn(rt.deps, rt);
    } finally {
      await rt.close();
    }
  }

  it('off: never compacts, even when owed and inside the window', async () => {
    await withWorkerRuntime({}, async (deps) => {
      await markCompactionOwed(deps.store.db, now);
      now = at('2026-06-01T03:00:00Z');
      await housekeeping(deps);
      assert.equal((await compactionRows(deps)).length, 0);
      assert.notEqual(await findCompactionOwed(deps.store.db), null);
    });
  });

  it('after-erasure: compacts inside the window when owed', async () => {
    await withWorkerRuntime({ PRIVACY_COMPACT: 'after-erasure' }, async (deps) => {
      const db = deps.store.db;
      now = at('2026-06-01T10:00:00Z');
      await markCompactionOwed(db, now);
      await housekeeping(deps);
      assert.equal((await compactionRows(deps)).length, 0, 'outside the window');

      now = at('2026-06-02T02:30:00Z');
      await housekeeping(deps);
      const rows = await compactionRows(deps);
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.trigger, 'after-erasure');
      assert.equal(rows[0]?.started_at, now);
      assert.equal(rows[0]?.error, null);
      assert.equal(await findCompactionOwed(db), null);

      now += 120_000;
      await housekeeping(deps);
      assert.equal((await compactionRows(deps)).length, 1, 'nothing owed');

      await markCompactionOwed(db, now);
      now += 120_000;
      await housekeeping(deps);
      assert.equal((await compactionRows(deps)).length, 2, 'another erasure, same window');
    });
  });

  it('daily: at most once per window, and only when owed', async () => {
    await withWorkerRuntime(
      { PRIVACY_COMPACT: 'daily', PRIVACY_COMPACT_WINDOW: '23:00-01:00' },
      async (deps) => {
        const db = deps.store.db;
        now = at('2026-06-01T23:30:00Z');
        await housekeeping(deps);
        assert.equal((await compactionRows(deps)).length, 0, 'nothing owed');

        await markCompactionOwed(db, now);
        await housekeeping(deps);
        assert.equal((await compactionRows(deps)).length, 1);

        // Owed again, still in the same window (now past midnight): it waits for the next one.
        await markCompactionOwed(db, now);
        now = at('2026-06-02T00:30:00Z');
        await housekeeping(deps);
        assert.equal((await compactionRows(deps)).length, 1);
        assert.notEqual(await findCompactionOwed(db), null);

        now = at('2026-06-02T23:05:00Z');
        await housekeeping(deps);
        const rows = await compactionRows(deps);
        assert.deepEqual(
          rows.map((r) => [r.trigger, r.started_at]),
          [
            ['daily', at('2026-06-01T23:30:00Z')],
            ['daily', at('2026-06-02T23:05:00Z')],
          ],
        );
        assert.equal(await findCompactionOwed(db), null);
      },
    );
  });

  for (const mode of ['after-erasure', 'daily'] as const) {
    it(`logs a failed compaction and tries again in the same window (${mode})`, async () => {
      await withWorkerRuntime({ PRIVACY_COMPACT: mode }, async (deps, rt) => {
        const failing: ServiceDeps = {
          ...deps,
          store: {
            ...deps.store,
            async compactTables() {
              throw Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' });
            },
          },
        };
        now = at('2026-06-03T03:00:00Z');
        await markCompactionOwed(deps.store.db, now);
        await housekeeping(failing);
        const rows = await compactionRows(deps);
        assert.equal(rows.length, 1);
        assert.equal(rows[0]?.error, 'canceling statement due to lock timeout');
        assert.equal(await findCompactionOwed(deps.store.db), now, 'owed again');
        const failed = rt.logs.lines
          .map((l) => JSON.parse(l))
          .find((l) => l.msg === 'privacy table compaction failed');
        assert.equal(failed?.err.message, 'canceling statement due to lock timeout');
        assert.equal(failed?.err.code, '55P03');
        // The next housekeeping in the window tries again, with the real store.
        now += 120_000;
        await housekeeping(deps);
        const retried = await compactionRows(deps);
        assert.equal(retried.length, 2);
        assert.equal(retried[1]?.error, null);
      });
    });
  }
});

describe(`rpa privacy compact on ${TEST_DIALECT}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-compaction-cli-'));
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
  const databaseUrl = TEST_DIALECT === 'postgres' ? TEST_DATABASE_URL : `sqlite:${join(dir, 'cli.db')}`;

  const rpa = rpaAgainst({ databaseUrl, schema });

  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('rewrites the tables and prints what it did', () => {
    const r = rpa('privacy', 'compact', '--json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.tables, [...COMPACTED_TABLES]);
    assert.match(out.id, /^[0-9a-f-]{36}$/);
    for (const k of ['bytesBefore', 'bytesAfter', 'durationMs']) assert.equal(typeof out[k], 'number', k);

    const human = rpa('privacy', 'compact');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^tables\s+reviews, review_identifiers, client_responses/m);
  });

  it('is listed under rpa privacy', () => {
    const r = rpa('privacy', '--help');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /compact/);
  });
});
