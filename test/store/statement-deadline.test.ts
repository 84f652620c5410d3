import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openStore, type Store, type StoreOptions } from '../../src/store/database.js';
import { isDatabaseUnavailable } from '../../src/store/driver-errors.js';
import { CLIENT_MARGIN_MS } from '../../src/store/statement-deadline.js';
import { proxyDuringSuite } from '../helpers/tcp-proxy.js';
import { dropSchema, TEST_DATABASE_URL, TEST_DIALECT, uniqueSchema } from '../helpers/test-runtime.js';

const skip = TEST_DIALECT !== 'postgres' && 'PostgreSQL only: statement deadlines (DATABASE_URL)';

/** The error `work` failed with, and how long it took; fails the test if `work` succeeded. */
async function failure(work: Promise<unknown>): Promise<{ err: unknown; ms: number }> {
  const started = Date.now();
  const err = await work.then(
    () => assert.fail('the statement succeeded'),
    (e: unknown) => e,
  );
  return { err, ms: Date.now() - started };
}

const backendPid = async (store: Store) =>
  (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(store.db)).rows[0]?.pid;

describe('PostgreSQL statement deadlines', { skip, timeout: 30_000 }, () => {
  const faults = proxyDuringSuite(TEST_DATABASE_URL);
  const schemas: string[] = [];

  after(async () => {
    for (const schema of schemas) await dropSchema(TEST_DATABASE_URL, schema);
  });

  async function open(options: StoreOptions, schema = uniqueSchema()): Promise<Store> {
    schemas.push(schema);
    faults.proxy().setMode('pass');
    return openStore(faults.proxy().url(TEST_DATABASE_URL), { schema, poolSize: 1, ...options });
  }

  const statementTimeout = async (store: Store) =>
    (await sql<{ t: string }>`select current_setting('statement_timeout') as t`.execute(store.db)).rows[0]?.t;

  it('cancels a statement past its deadline on the server, as unavailable, and keeps the connection', async () => {
    const store = await open({ statementTimeoutMs: 300 });
    try {
      const before = await backendPid(store);
      const { err, ms } = await failure(sql`select pg_sleep(3)`.execute(store.db));
      assert.equal((err as { code?: unknown }).code, '57014', String(err));
      assert.ok(isDatabaseUnavailable(err), `unavailable, got ${String(err)}`);
      assert.ok(ms < 300 + CLIENT_MARGIN_MS, `cancelled after ${ms} ms`);
      // Cancelled cleanly by the server: the connection answers the next statement.
      assert.equal(await backendPid(store), before);
    } finally {
      await store.close();
    }
  });

  it('gives up on a server that does not answer, and discards the connection', async () => {
    const store = await open({ statementTimeoutMs: 300 });
    try {
      const before = await backendPid(store);
      faults.proxy().setMode('stall');
      const { err, ms } = await failure(sql`select 'late' as v`.execute(store.db));
      assert.ok(isDatabaseUnavailable(err), `unavailable, got ${String(err)}`);
      assert.ok(ms >= 300 && ms < 300 + CLIENT_MARGIN_MS + 500, `gave up after ${ms} ms`);
      // The held bytes now flow: an answer to the abandoned statement must not reach the next one.
      faults.proxy().setMode('pass');
      const { rows } = await sql<{
        v: string;
        pid: number;
      }>`select 'mine' as v, pg_backend_pid() as pid`.execute(store.db);
      assert.equal(rows[0]?.v, 'mine');
      assert.notEqual(rows[0]?.pid, before, 'a new connection');
      await store.ping();
    } finally {
      faults.proxy().setMode('pass');
      await store.close();
    }
  });

  it('answers a ping as unavailable within the deadline while the server does not answer', async () => {
    const store = await open({ statementTimeoutMs: 300 });
    try {
      await store.ping();
      faults.proxy().setMode('stall');
      const { err, ms } = await failure(store.ping());
      assert.ok(isDatabaseUnavailable(err), `unavailable, got ${String(err)}`);
      assert.ok(ms < 300 + CLIENT_MARGIN_MS + 500, `gave up after ${ms} ms`);
      faults.proxy().setMode('pass');
      await store.ping();
    } finally {
      faults.proxy().setMode('pass');
      await store.close();
    }
  });

  it('gives background work its own, longer deadline, for its transaction only', async () => {
    // Longer than the request deadline and its client margin together: only the background one allows it.
    const sleep = sql`select pg_sleep(1.2)`;
    const store = await open({ statementTimeoutMs: 300, backgroundStatementTimeoutMs: 60_000 });
    try {
      await store.db.transaction().execute(async (trx) => {
        await store.useBackgroundDeadline(trx);
        await sleep.execute(trx);
      });
      const { err } = await failure(sleep.execute(store.db));
      assert.equal((err as { code?: unknown }).code, '57014', String(err));
      const { err: inTransaction } = await failure(
        store.db.transaction().execute(async (trx) => {
          await sleep.execute(trx);
        }),
      );
      assert.equal((inTransaction as { code?: unknown }).code, '57014', String(inTransaction));
    } finally {
      await store.close();
    }
  });

  it('compacts tables under the background deadline, and hands the connection back with its own', async () => {
    const store = await open({ statementTimeoutMs: 300, backgroundStatementTimeoutMs: 60_000 });
    try {
      await sql`create table compacted (id int primary key, body text)`.execute(store.db);
      const sizes = await store.compactTables(['compacted']);
      assert.ok(sizes, 'compacted');
      assert.equal(await statementTimeout(store), '300ms');
    } finally {
      await store.close();
    }
  });

  it('hands the connection back with its own deadline when another process is compacting', async () => {
    const schema = uniqueSchema();
    const store = await open({ statementTimeoutMs: 300, backgroundStatementTimeoutMs: 5000 }, schema);
    // Another instance of the same schema holds the compaction lock.
    const other = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` });
    await other.connect();
    try {
      await other.query(`select pg_advisory_lock(${0x72706163}, hashtext(current_schema()))`);
      await sql`create table compacted (id int primary key)`.execute(store.db);
      assert.equal(await store.compactTables(['compacted']), null);
      assert.equal(await statementTimeout(store), '300ms');
    } finally {
      await other.end();
      await store.close();
    }
  });
});
