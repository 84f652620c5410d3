import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { openStore, type Store } from '../../src/store/database.js';
import {
  createSqliteGroupCommit,
  createTransactionPerWrite,
  groupCommitWithin,
} from '../../src/store/group-commit.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import type { Database } from '../../src/store/schema.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

describe(`group commit on ${TEST_DIALECT}`, () => {
  let store: Store;
  const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;

  before(async () => {
    store = await openStore(TEST_DATABASE_URL, schema ? { schema } : {});
    await migrateToLatest(store.db, store.schema);
  });
  after(async () => {
    await store.close();
    if (schema) await dropSchema(TEST_DATABASE_URL, schema);
  });

  const insert = (key: string) => (trx: Store['db']) =>
    trx.insertInto('limit_counters').values({ key, hits: 1, window_end: 1 }).execute();
  const keys = async (prefix: string) =>
    (await store.db.selectFrom('limit_counters').select('key').where('key', 'like', `${prefix}%`).execute())
      .map((r) => r.key)
      .sort();

  it('commits every write given at once, undoing only the one that failed and the one not kept', async () => {
    // The duplicate below is of a row committed beforehand: on PostgreSQL each write has its own
    // connection, so two writes of the same new key given at once may commit in either order.
    await store.groupCommit(insert('gc1:0'));
    const results = await Promise.allSettled([
      store.groupCommit(insert('gc1:a')),
      store.groupCommit(async (trx) => {
        await insert('gc1:b')(trx);
        throw new Error('this write fails after changing a row');
      }),
      store.groupCommit(
        async (trx) => {
          await insert('gc1:c')(trx);
          return 'refused';
        },
        (r) => r !== 'refused',
      ),
      store.groupCommit(insert('gc1:d')),
      // A unique violation is a driver error of one write, not of the batch.
      store.groupCommit(insert('gc1:0')),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected'],
    );
    assert.equal((results[2] as PromiseFulfilledResult<unknown>).value, 'refused');
    assert.deepEqual(await keys('gc1:'), ['gc1:0', 'gc1:a', 'gc1:d']);
  });

  it('inside a transaction, undoes a write alone and leaves the rest to that transaction', async () => {
    const rolledBack = new Error('the caller rolls back');
    await store.db.transaction().execute(async (trx) => {
      const within = groupCommitWithin(trx);
      const results = await Promise.allSettled([
        within(insert('gc3:a')),
        within(async (t) => {
          await insert('gc3:b')(t);
          throw new Error('this write fails after changing a row');
        }),
        within(
          async (t) => {
            await insert('gc3:c')(t);
            return 'refused';
          },
          (r) => r !== 'refused',
        ),
        within(insert('gc3:d')),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
      );
      assert.deepEqual(
        (await trx.selectFrom('limit_counters').select('key').where('key', 'like', 'gc3:%').execute())
          .map((r) => r.key)
          .sort(),
        ['gc3:a', 'gc3:d'],
      );
    });
    assert.deepEqual(await keys('gc3:'), ['gc3:a', 'gc3:d']);
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        await groupCommitWithin(trx)(insert('gc4:a'));
        throw rolledBack;
      }),
      rolledBack,
    );
    assert.deepEqual(await keys('gc4:'), []);
  });

  it('answers a write only once it is readable by everyone', async () => {
    const writes = Array.from({ length: 100 }, (_, i) =>
      store
        .groupCommit(insert(`gc2:${String(i).padStart(3, '0')}`))
        .then(() => keys(`gc2:${String(i).padStart(3, '0')}`)),
    );
    for (const seen of await Promise.all(writes)) assert.equal(seen.length, 1);
    assert.equal((await keys('gc2:')).length, 100);
  });
});

describe('group commit when no transaction can start', () => {
  // As a database does that stays busy past busy_timeout, or has been closed.
  const busy = {
    startTransaction: () => ({ execute: () => Promise.reject(new Error('database is locked')) }),
  } as unknown as Kysely<Database>;

  for (const [name, create] of [
    ['SQLite group commit', createSqliteGroupCommit],
    ['transaction per write', createTransactionPerWrite],
  ] as const) {
    it(`${name}: rejects every waiting write, rather than leaving it waiting`, async () => {
      const groupCommit = create(busy);
      const writes = [groupCommit(async () => 1), groupCommit(async () => 2)];
      for (const write of writes) await assert.rejects(write, /database is locked/);
      // And the next write is tried again, not lost behind the failed batch.
      await assert.rejects(
        groupCommit(async () => 3),
        /database is locked/,
      );
    });
  }
});
