import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { privacySubject, type SubjectIdentifier } from '../../src/domain/privacy-subject.js';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { preparedInsert, preparedQuery } from '../../src/store/prepared-query.js';
import {
  findAccessibleResponse,
  findAccessibleResponseAuthor,
} from '../../src/store/repositories/client-responses.js';
import { findLinkedIdentifiers } from '../../src/store/repositories/privacy-subjects.js';
import { findReview } from '../../src/store/repositories/reviews.js';
import { respondTo, seedPrivacyTenant } from '../helpers/privacy-fixtures.js';
import {
  createDatabase,
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
  uniqueSchema,
} from '../helpers/test-runtime.js';

describe(`prepared queries on ${TEST_DIALECT}`, () => {
  let store: Store;
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;

  before(async () => {
    store = await openStore(TEST_DATABASE_URL, schema ? { schema } : {});
    await migrateToLatest(store.db, store.schema);
    await store.db
      .insertInto('limit_counters')
      .values([
        { key: 'pq:a', hits: 1, window_end: 10 },
        { key: 'pq:b', hits: 2, window_end: 20 },
        { key: 'pq:c', hits: 3, window_end: 10 },
      ])
      .execute();
  });
  after(async () => {
    await store.close();
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  // A constant (the `like` pattern) between two parameters: each keeps its place.
  const counters = preparedQuery((db, p: { windowEnd: number; minHits: number }) =>
    db
      .selectFrom('limit_counters')
      .select(['key', 'hits'])
      .where('window_end', '=', p.windowEnd)
      .where('key', 'like', 'pq:%')
      .where('hits', '>=', p.minHits)
      .orderBy('key'),
  );
  const bump = preparedQuery((db, p: { key: string }) =>
    db
      .updateTable('limit_counters')
      .set((eb) => ({ hits: eb('hits', '+', 10) }))
      .where('key', '=', p.key),
  );

  it('runs the query once compiled with each call’s values', async () => {
    const hits = (rows: { key: string; hits: number | string }[]) => rows.map((r) => [r.key, Number(r.hits)]);
    assert.deepEqual(hits(await counters.execute(store.db, { windowEnd: 10, minHits: 1 })), [
      ['pq:a', 1],
      ['pq:c', 3],
    ]);
    assert.deepEqual(hits(await counters.execute(store.db, { windowEnd: 10, minHits: 2 })), [['pq:c', 3]]);
    assert.deepEqual(hits(await counters.execute(store.db, { windowEnd: 20, minHits: 0 })), [['pq:b', 2]]);
    assert.equal(await counters.executeTakeFirst(store.db, { windowEnd: 30, minHits: 0 }), undefined);
  });

  it('runs inside a transaction, seeing its uncommitted writes, and reports affected rows', async () => {
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        const r = await bump.executeRaw(trx, { key: 'pq:a' });
        assert.equal(Number(r.numAffectedRows), 1);
        const row = await counters.executeTakeFirst(trx, { windowEnd: 10, minHits: 11 });
        assert.equal(row?.key, 'pq:a');
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.equal(await counters.executeTakeFirst(store.db, { windowEnd: 10, minHits: 11 }), undefined);
  });

  it('refuses a call without one of its parameters', async () => {
    await assert.rejects(
      counters.execute(store.db, { windowEnd: 10 } as unknown as { windowEnd: number; minHits: number }),
      /parameter minHits is missing/,
    );
  });

  // Two rows at most compiled; more are built per call.
  const counterRows = preparedInsert('limit_counters', ['key', 'hits', 'window_end'], 2);
  const counterRowsAt = async (prefix: string) =>
    (
      await store.db
        .selectFrom('limit_counters')
        .select(['key', 'hits', 'window_end'])
        .where('key', 'like', `${prefix}%`)
        .orderBy('key')
        .execute()
    ).map((r) => [r.key, Number(r.hits), Number(r.window_end)]);

  it('inserts each call’s rows, compiled per row count, and builds larger counts per call', async () => {
    await counterRows.execute(store.db, [{ key: 'pi:a', hits: 1, window_end: 5 }]);
    await counterRows.execute(store.db, [{ key: 'pi:b', hits: 2, window_end: 6 }]);
    await counterRows.execute(store.db, [
      { key: 'pi:c', hits: 3, window_end: 7 },
      { key: 'pi:d', hits: 4, window_end: 8 },
    ]);
    await counterRows.execute(store.db, [
      { key: 'pi:e', hits: 5, window_end: 9 },
      { key: 'pi:f', hits: 6, window_end: 10 },
      { key: 'pi:g', hits: 7, window_end: 11 },
    ]);
    await counterRows.execute(store.db, []);
    assert.deepEqual(await counterRowsAt('pi:'), [
      ['pi:a', 1, 5],
      ['pi:b', 2, 6],
      ['pi:c', 3, 7],
      ['pi:d', 4, 8],
      ['pi:e', 5, 9],
      ['pi:f', 6, 10],
      ['pi:g', 7, 11],
    ]);
  });

  it('inserts inside a transaction, undone with it, and refuses a row without one of its columns', async () => {
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        await counterRows.execute(trx, [{ key: 'pt:a', hits: 1, window_end: 1 }]);
        assert.deepEqual(
          (await trx.selectFrom('limit_counters').select('key').where('key', '=', 'pt:a').execute()).length,
          1,
        );
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.deepEqual(await counterRowsAt('pt:'), []);
    await assert.rejects(
      counterRows.execute(store.db, [
        { key: 'pt:b', hits: 1 } as unknown as { key: string; hits: number; window_end: number },
      ]),
      /value window_end is missing/,
    );
  });

  // A statement a connection keeps answers with the columns its table had when it was parsed, and
  // its cached plan with estimates of no call's values: a release's migration adding a column must
  // not fail the queries of the release that serves meanwhile (docs/operations.md).
  it('leaves no statement on a PostgreSQL connection', {
    skip: TEST_DIALECT !== 'postgres' && 'PostgreSQL only',
  }, async () => {
    const kept = await store.db.transaction().execute(async (trx) => {
      await counters.execute(trx, { windowEnd: 10, minHits: 1 });
      await counters.execute(trx, { windowEnd: 20, minHits: 0 });
      await counterRows.execute(trx, [{ key: 'pn:a', hits: 1, window_end: 1 }]);
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        trx,
      );
      return rows.map((r) => r.statement);
    });
    assert.deepEqual(kept, []);
  });

  it('answers the same after a column is added to the table it reads', async () => {
    const read = () => counters.execute(store.db, { windowEnd: 20, minHits: 0 });
    const before = await read();
    await sql`alter table limit_counters add column next_release_note text`.execute(store.db);
    assert.deepEqual(await read(), before);
    assert.deepEqual(await read(), before);
  });

  it('runs every prepared read of the repositories', async () => {
    const scope = { environment: 'production', applicationId: 'app_none' } as const;
    assert.equal(await findReview(store.db, 'production', 'rv_none'), undefined);
    assert.equal(await findAccessibleResponse(store.db, scope, 'rs_none'), undefined);
    assert.equal(await findAccessibleResponseAuthor(store.db, scope, 'rs_none'), undefined);
    const subject = { clientIds: ['cl_none'], identifiers: [{ kind: 'emailAddress', hash: 'h' }] };
    assert.deepEqual(await findLinkedIdentifiers(store.db, subject), []);
  });
});

/** Rows each grown table gets: far more than one statement may read for a key. */
const GROWN_ROWS = 30_000;

/** Sequential scans of a table in this schema, once this connection's own counts were flushed. */
async function seqScans(db: Store['db'], table: string): Promise<number> {
  // A backend otherwise holds its counts for up to a second, or 10 s once idle (PostgreSQL 15,
  // pg_stat_force_next_flush): flushed as it goes idle after this statement.
  await sql`select pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<{ n: string }>`
    select seq_scan as n from pg_stat_user_tables
    where schemaname = current_schema() and relname = ${table}`.execute(db);
  return Number(rows[0]?.n);
}

// A named statement is planned once per connection: from its sixth run PostgreSQL may keep a generic
// plan, made with the sizes its tables had then, until something invalidates it (an ANALYZE, any
// schema created or dropped in the database). A hot read first run on a small table must still
// probe an index once that table holds many rows, not scan it on every call.
describe('prepared reads on a table grown after their plan was made', {
  skip: TEST_DIALECT !== 'postgres' && 'PostgreSQL only: SQLite plans each statement as it is prepared',
}, () => {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  let rt: TestRuntime;
  let db: Store['db'];
  let applicationId: string;
  let responseId: string;
  let clientId: string;
  let subject: SubjectIdentifier[];
  const scope = () => ({ environment: 'production', applicationId }) as const;

  before(async () => {
    // One connection: every read below runs on the one that kept its plan.
    database = await createDatabase(TEST_DATABASE_URL);
    rt = await createTestRuntime({ DATABASE_POOL_SIZE: '1' }, { databaseUrl: database.url });
    db = rt.deps.store.db;
    ({ applicationId } = await seedPrivacyTenant(rt.deps));
    await respondTo(rt.deps, applicationId, ['demo-acme-en_gb-1']);
    const row = await db.selectFrom('client_responses').select(['id', 'client_id']).executeTakeFirstOrThrow();
    ({ id: responseId, client_id: clientId } = row);
    subject = privacySubject(rt.deps.identifierKey, { emailAddress: 'alice@example.com' });
  });
  after(async () => {
    await rt?.close();
    await database?.drop();
  });

  const reads: { name: string; table: string; read: () => Promise<unknown> }[] = [
    {
      name: 'the author of a response',
      table: 'client_responses',
      read: () => findAccessibleResponseAuthor(db, scope(), responseId),
    },
    {
      name: 'a response',
      table: 'client_responses',
      read: () => findAccessibleResponse(db, scope(), responseId),
    },
    { name: 'a review', table: 'reviews', read: () => findReview(db, 'production', 'demo-acme-en_gb-1') },
    {
      name: 'the identifiers linked to a subject',
      table: 'review_identifiers',
      read: () => findLinkedIdentifiers(db, { clientIds: [clientId], identifiers: subject }),
    },
  ];

  it('probes an index for each key instead of scanning the table', async () => {
    for (const { read } of reads) for (let i = 0; i < 8; i++) await read();
    await db.transaction().execute(async (trx) => {
      await rt.deps.store.useBackgroundDeadline(trx);
      await sql`
        insert into reviews (id, environment, client_id, submitted_at, created_at)
        select 'grown-' || g, 'production', ${clientId}, 0, 0 from generate_series(1, ${GROWN_ROWS}) g`.execute(
        trx,
      );
      await sql`
        insert into review_identifiers (review_id, environment, client_id, kind, value_hash)
        select 'grown-' || g, 'production', ${clientId}, 'emailAddress', md5(g::text)
        from generate_series(1, ${GROWN_ROWS}) g`.execute(trx);
      await sql`
        insert into client_responses
        select gen_random_uuid()::text, r.environment, 'grown-' || g, r.client_id, r.application_id, r.author_id,
          r.department, r.response, r.response_hash, r.response_by, r.response_source, r.created_at, r.updated_at
        from client_responses r, generate_series(1, ${GROWN_ROWS}) g where r.id = ${responseId}`.execute(trx);
    });
    const scanned: string[] = [];
    for (const { name, table, read } of reads) {
      const before = await seqScans(db, table);
      for (let i = 0; i < 3; i++) assert.ok(await read(), name);
      const scans = (await seqScans(db, table)) - before;
      if (scans > 0) scanned.push(`${name}: ${scans} scans of ${table}`);
    }
    assert.deepEqual(scanned, []);
  });
});
