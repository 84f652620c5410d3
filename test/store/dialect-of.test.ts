import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { openStore } from '../../src/store/database.js';
import { dialectOf } from '../../src/store/dialect-of.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

describe('dialectOf', () => {
  it('names the dialect of the store handle and of a transaction begun on it', async () => {
    const schema = uniqueSchema();
    const store = await openStore(TEST_DATABASE_URL, { schema });
    after(async () => {
      await store.close();
      if (TEST_DIALECT === 'postgres') await dropSchema(TEST_DATABASE_URL, schema);
    });
    assert.equal(dialectOf(store.db), TEST_DIALECT);
    const inside = await store.db.transaction().execute(async (trx) => dialectOf(trx));
    assert.equal(inside, store.dialect);
  });
});
