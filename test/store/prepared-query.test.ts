import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { preparedInsert, preparedQuery } from '../../src/store/prepared-query.js';
import {
  findAccessibleResponse,
  findAccessibleResponseAuthor,
} from '../../src/store/repositories/client-responses.js';
import { findLinkedIdentifiers } from '../../src/store/repositories/privacy-subjects.js';
import { findReview } from '../../src/store/repositories/reviews.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

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
