import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createQueryId, type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { openStore, type Store } from '../../../src/store/database.js';
import {
  findAccessibleResponse,
  findAccessibleResponseAuthor,
  pageResponsesOfReview,
  selectResponses,
  toClientResponse,
} from '../../../src/store/repositories/client-responses.js';
import { respondTo, seedPrivacyTenant } from '../../helpers/privacy-fixtures.js';
import {
  createTestRuntime,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
} from '../../helpers/test-runtime.js';

/** Counts the statements run through a handle (Kysely hands each result to its plugins once). */
function statementCounter(): KyselyPlugin & { count: number } {
  return {
    count: 0,
    transformQuery: (args) => args.node,
    async transformResult(args) {
      this.count++;
      return args.result;
    },
  };
}

// The Response API's reads of one response, asked by many requests at once: each must get its own
// answer, under its own grant, whatever else shares its statement.
describe(`reads of granted responses on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let applicationId: string;
  const ids: Record<string, string> = {};

  before(async () => {
    rt = await createTestRuntime();
    const deps = rt.deps;
    ({ applicationId } = await seedPrivacyTenant(deps));
    await respondTo(deps, applicationId, ['demo-acme-en_gb-1', 'demo-acme-en_gb-2', 'demo-acme-de_de-1']);
    const rows = await deps.store.db
      .selectFrom('client_responses')
      .select(['id', 'review_id', 'author_id'])
      .execute();
    for (const row of rows) ids[row.review_id] = row.id;
  });
  after(() => rt.close());

  const scope = (environment: 'production' | 'staging' = 'production', app = applicationId) => ({
    environment,
    applicationId: app,
  });

  it('answers reads asked together each with its own response, or none outside its scope', async () => {
    const { store } = rt.deps;
    const counter = statementCounter();
    const db = store.db.withPlugin(counter);
    const en1 = ids['demo-acme-en_gb-1'] ?? '';
    const en2 = ids['demo-acme-en_gb-2'] ?? '';
    const found = await Promise.all([
      findAccessibleResponseAuthor(db, scope(), en1),
      findAccessibleResponseAuthor(db, scope(), randomUUID()),
      findAccessibleResponseAuthor(db, scope('staging'), en1),
      findAccessibleResponseAuthor(db, scope('production', 'another-application'), en2),
      findAccessibleResponseAuthor(db, scope(), en2),
      findAccessibleResponseAuthor(db, scope(), en1),
    ]);
    assert.deepEqual(
      found.map((f) => f?.id),
      [en1, undefined, undefined, undefined, en2, en1],
    );
    assert.ok(found[0]?.authorId);
    if (store.dialect === 'postgres') assert.equal(counter.count, 1, 'one statement for the turn’s reads');
  });

  it('answers whole responses the same way, each with its client’s name', async () => {
    const { store } = rt.deps;
    const counter = statementCounter();
    const db = store.db.withPlugin(counter);
    const en = ids['demo-acme-en_gb-1'] ?? '';
    const de = ids['demo-acme-de_de-1'] ?? '';
    const found = await Promise.all([
      findAccessibleResponse(db, scope(), en),
      findAccessibleResponse(db, scope(), randomUUID()),
      findAccessibleResponse(db, scope(), de),
      findAccessibleResponse(db, scope('staging'), de),
      findAccessibleResponse(db, scope('production', 'another-application'), en),
    ]);
    if (store.dialect === 'postgres') assert.equal(counter.count, 1, 'one statement for the turn’s reads');
    const stored = async (id: string) =>
      toClientResponse(
        await selectResponses(store.db).where('client_responses.id', '=', id).executeTakeFirstOrThrow(),
      );
    assert.deepEqual(found, [await stored(en), undefined, await stored(de), undefined, undefined]);
    assert.deepEqual([found[0]?.clientName, found[2]?.clientName], ['Acme-EN_GB', 'Acme-DE_DE']);
  });

  it('answers none for a response of a client whose grant is withdrawn, and the others in its statement', async () => {
    const { store } = rt.deps;
    const de = ids['demo-acme-de_de-1'] ?? '';
    const en = ids['demo-acme-en_gb-1'] ?? '';
    const read = () => Promise.all([de, en].map((id) => findAccessibleResponseAuthor(store.db, scope(), id)));
    assert.deepEqual(
      (await read()).map((f) => f?.id),
      [de, en],
    );
    const deClient = await store.db
      .selectFrom('clients')
      .select('id')
      .where('name', '=', 'Acme-DE_DE')
      .where('environment', '=', 'production')
      .executeTakeFirstOrThrow();
    await store.db
      .deleteFrom('application_grants')
      .where('application_id', '=', applicationId)
      .where('client_id', '=', deClient.id)
      .execute();
    assert.deepEqual(
      (await read()).map((f) => f?.id),
      [undefined, en],
    );
    await store.db
      .insertInto('application_grants')
      .values({ application_id: applicationId, client_id: deClient.id })
      .execute();
  });

  it('reads inside a transaction in it, seeing its own uncommitted changes', async () => {
    const { store } = rt.deps;
    const en = ids['demo-acme-en_gb-1'] ?? '';
    const rolledBack = new Error('roll back');
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        assert.equal((await findAccessibleResponseAuthor(trx, scope(), en))?.id, en);
        await trx.deleteFrom('client_responses').where('id', '=', en).execute();
        assert.equal(await findAccessibleResponseAuthor(trx, scope(), en), undefined);
        throw rolledBack;
      }),
      rolledBack,
    );
    assert.equal((await findAccessibleResponseAuthor(store.db, scope(), en))?.id, en);
  });

  it('sees a response another instance committed before the read was asked', {
    skip: TEST_DIALECT !== 'postgres' && 'the SQLite store of these tests is in memory, in one process',
  }, async () => {
    const other: Store = await openStore(TEST_DATABASE_URL, { schema: rt.schema ?? '' });
    try {
      await respondTo({ ...rt.deps, store: other }, applicationId, ['demo-acme-de_de-2']);
      const row = await other.db
        .selectFrom('client_responses')
        .select('id')
        .where('review_id', '=', 'demo-acme-de_de-2')
        .executeTakeFirstOrThrow();
      const { store } = rt.deps;
      const [fresh, known] = await Promise.all([
        findAccessibleResponseAuthor(store.db, scope(), row.id),
        findAccessibleResponseAuthor(store.db, scope(), ids['demo-acme-en_gb-1'] ?? ''),
      ]);
      assert.equal(fresh?.id, row.id);
      assert.equal(known?.id, ids['demo-acme-en_gb-1']);
    } finally {
      await other.close();
    }
  });
});

/** Keeps the operation tree of each statement run through a handle. */
function statementRecorder(): KyselyPlugin & { nodes: RootOperationNode[] } {
  return {
    nodes: [],
    transformQuery(args) {
      this.nodes.push(args.node);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
}

// A review answered again and again must not make each page of its list read all its responses.
describe(`pages of a review's responses on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  const REVIEW = 'demo-acme-en_gb-1';
  const ANSWERS = 2000;

  before(async () => {
    rt = await createTestRuntime();
    const { applicationId } = await seedPrivacyTenant(rt.deps);
    await respondTo(rt.deps, applicationId, [REVIEW]);
    // Copies of the one response, spread over time, by one statement.
    await sql`
      insert into client_responses
      select r.id || '-' || g.value, r.environment, r.review_id, r.client_id, r.application_id, r.author_id,
        r.department, r.response, r.response_hash || '-' || g.value, r.response_by, r.response_source,
        r.created_at + g.value, r.updated_at
      from client_responses r, (${sql.raw(
        rt.deps.store.dialect === 'postgres'
          ? `select generate_series(1, ${ANSWERS}) as value`
          : `with recursive s(value) as (select 1 union all select value + 1 from s where value < ${ANSWERS}) select value from s`,
      )}) g`.execute(rt.deps.store.db);
    if (rt.deps.store.dialect === 'postgres') await sql`analyze client_responses`.execute(rt.deps.store.db);
  });
  after(() => rt.close());

  it('reads a page in the order of an index, without sorting the review’s responses', async () => {
    const { store } = rt.deps;
    const recorder = statementRecorder();
    const review = { environment: 'production', reviewId: REVIEW } as const;
    const first = await pageResponsesOfReview(store.db.withPlugin(recorder), review, null, 20);
    const last = first.at(-1);
    assert.ok(last);
    const next = await pageResponsesOfReview(
      store.db.withPlugin(recorder),
      review,
      { at: last.createdAt, id: last.id },
      20,
    );
    assert.equal(next.length, 20);
    assert.notEqual(next[0]?.id, last.id);
    for (const node of recorder.nodes) {
      const query = store.db.getExecutor().compileQuery(node, createQueryId());
      const explain = store.dialect === 'postgres' ? 'explain' : 'explain query plan';
      const { rows } = await store.db.executeQuery<Record<string, unknown>>({
        ...query,
        sql: `${explain} ${query.sql}`,
      });
      const plan = rows.map((row) => Object.values(row).join(' ')).join('\n');
      assert.doesNotMatch(plan, /Sort|TEMP B-TREE/, plan);
    }
  });
});
