import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store, type StoreOptions } from '../../src/store/database.js';
import { isDatabaseUnavailable } from '../../src/store/driver-errors.js';
import { eventually } from '../helpers/eventually.js';
import { proxyDuringSuite } from '../helpers/tcp-proxy.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

const skip =
  TEST_DIALECT !== 'postgres' && 'PostgreSQL only: a pool of connections that can lose them (DATABASE_URL)';

describe('PostgreSQL connections that fail', { skip }, () => {
  const faults = proxyDuringSuite(TEST_DATABASE_URL);
  const { uncaught } = faults;
  const schemas: string[] = [];

  after(async () => {
    for (const schema of schemas) await dropSchema(TEST_DATABASE_URL, schema);
  });

  async function open(options: StoreOptions = {}): Promise<Store> {
    const schema = uniqueSchema();
    schemas.push(schema);
    faults.proxy().setMode('pass');
    return openStore(faults.proxy().url(TEST_DATABASE_URL), { schema, ...options });
  }

  it('loses checked-out and idle connections without an uncaught error, and reconnects by itself', async () => {
    const store = await open({ poolSize: 3 });
    try {
      // Two connections in the pool, one of them idle, the other held by an open transaction.
      await Promise.all([sql`select 1`.execute(store.db), sql`select 2`.execute(store.db)]);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const transaction = store.db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await gate;
        await sql`select 2`.execute(trx);
      });
      const outcome = transaction.then(
        () => null,
        (err: unknown) => err,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));

      faults.proxy().setMode('refuse');
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      const failed = await outcome;
      assert.ok(failed, 'the transaction lost its connection');
      assert.ok(isDatabaseUnavailable(failed), `unavailable, got ${String(failed)}`);
      const refused = await sql`select 1`.execute(store.db).catch((err: unknown) => err);
      assert.ok(isDatabaseUnavailable(refused), `unavailable, got ${String(refused)}`);
      await assert.rejects(store.ping(), (err) => isDatabaseUnavailable(err));

      faults.proxy().setMode('pass');
      const { rows } = await eventually(() => sql<{ n: number }>`select 42 as n`.execute(store.db));
      assert.deepEqual(rows, [{ n: 42 }]);
      await store.ping();
      assert.deepEqual(uncaught, []);
    } finally {
      await store.close();
    }
  });

  it('waits a bounded time for a connection of a full pool, then fails as unavailable', async () => {
    // The held statement outlasts the pool's wait, not its own deadline.
    const store = await open({ poolSize: 1, connectionTimeoutMs: 200, statementTimeoutMs: 5000 });
    try {
      const held = sql`select pg_sleep(1.5)`.execute(store.db);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const waited = await sql`select 1`.execute(store.db).then(
        () => null,
        (err: unknown) => err,
      );
      assert.ok(waited, 'no connection was free');
      assert.ok(isDatabaseUnavailable(waited), `unavailable, got ${String(waited)}`);
      await held;
      await sql`select 1`.execute(store.db);
    } finally {
      await store.close();
    }
  });

  it('reports a connection lost while idle, and nothing while the database answers', async () => {
    const store = await open({ poolSize: 2 });
    const lost: unknown[] = [];
    store.onConnectionLost((err) => lost.push(err));
    try {
      await sql`select 1`.execute(store.db);
      assert.deepEqual(lost, []);
      faults.proxy().setMode('refuse');
      await eventually(async () => assert.equal(lost.length, 1));
      assert.ok(isDatabaseUnavailable(lost[0]), `unavailable, got ${String(lost[0])}`);
      faults.proxy().setMode('pass');
      await eventually(() => store.ping());
      assert.deepEqual(uncaught, []);
    } finally {
      await store.close();
    }
  });
});
