import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Review } from '../../src/domain/review.js';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { preparedQuery } from '../../src/store/prepared-query.js';
import { findReview, insertReviews } from '../../src/store/repositories/reviews.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

/**
 * A release's additive migration runs while the previous release serves (docs/operations.md,
 * "Health, readiness and migrations"): the named statements its connections hold must keep
 * answering.
 */
describe('named statements while the schema changes', {
  skip: TEST_DIALECT !== 'postgres' && 'PostgreSQL only',
}, () => {
  let store: Store;
  const schema = uniqueSchema();
  const review: Review = {
    id: 'rv_named_1',
    environment: 'production',
    clientId: 'cl_named',
    rating: 4,
    title: 'Title',
    text: 'Text',
    author: { name: 'Ann' },
    submittedAt: 1_000,
    createdAt: 2_000,
  };
  // One connection, so every statement below runs where the earlier ones were parsed.
  before(async () => {
    store = await openStore(TEST_DATABASE_URL, { schema, poolSize: 1 });
    await migrateToLatest(store.db, store.schema);
    await store.db
      .insertInto('clients')
      .values({ id: 'cl_named', environment: 'production', name: 'named', created_at: 1 })
      .execute();
    await insertReviews(store.db, [{ review, identifiers: [] }]);
    await store.db.insertInto('limit_counters').values({ key: 'named:a', hits: 3, window_end: 10 }).execute();
  });
  after(async () => {
    await store?.close();
    await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('answers a prepared read the same after a column is added to its table', async () => {
    assert.deepEqual(await findReview(store.db, 'production', review.id), review);
    await sql`alter table reviews add column next_release_note text`.execute(store.db);
    assert.deepEqual(await findReview(store.db, 'production', review.id), review);
    assert.deepEqual(await findReview(store.db, 'production', review.id), review);
  });

  const hits = preparedQuery((db, p: { key: string }) =>
    db.selectFrom('limit_counters').select(['key', 'hits']).where('key', '=', p.key),
  );

  it('prepares a statement again once its result type changed, instead of failing', async () => {
    const first = await hits.executeTakeFirst(store.db, { key: 'named:a' });
    assert.equal(Number(first?.hits), 3);
    await sql`alter table limit_counters alter column hits type text using hits::text`.execute(store.db);
    assert.deepEqual(await hits.executeTakeFirst(store.db, { key: 'named:a' }), {
      key: 'named:a',
      hits: '3',
    });
    assert.deepEqual(await hits.executeTakeFirst(store.db, { key: 'named:a' }), {
      key: 'named:a',
      hits: '3',
    });
  });

  it('prepares a statement again when the connection no longer holds it', async () => {
    await hits.executeTakeFirst(store.db, { key: 'named:a' });
    await sql`deallocate all`.execute(store.db);
    assert.deepEqual(await hits.executeTakeFirst(store.db, { key: 'named:a' }), {
      key: 'named:a',
      hits: '3',
    });
  });

  it('fails a statement whose plan went stale inside a transaction, and prepares it again for the next', async () => {
    await hits.executeTakeFirst(store.db, { key: 'named:a' });
    await sql`alter table limit_counters alter column hits type bigint using hits::bigint`.execute(store.db);
    await assert.rejects(
      store.db.transaction().execute((trx) => hits.executeTakeFirst(trx, { key: 'named:a' })),
      (err: { code?: string }) => err.code === '0A000',
    );
    const again = await store.db
      .transaction()
      .execute((trx) => hits.executeTakeFirst(trx, { key: 'named:a' }));
    assert.deepEqual(again, { key: 'named:a', hits: 3 });
  });

  it('prepares a statement again after a failed transaction even when the session dropped it meanwhile', async () => {
    await hits.executeTakeFirst(store.db, { key: 'named:a' });
    await sql`alter table limit_counters alter column hits type text using hits::text`.execute(store.db);
    await assert.rejects(
      store.db.transaction().execute((trx) => hits.executeTakeFirst(trx, { key: 'named:a' })),
      (err: { code?: string }) => err.code === '0A000',
    );
    await sql`deallocate all`.execute(store.db);
    assert.deepEqual(await hits.executeTakeFirst(store.db, { key: 'named:a' }), {
      key: 'named:a',
      hits: '3',
    });
  });
});
