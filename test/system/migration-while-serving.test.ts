import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { TEST_DATABASE_URL, TEST_DIALECT } from '../helpers/test-runtime.js';
import {
  createResponseHarness,
  EN,
  EN_REVIEW,
  type ResponseHarness,
} from '../http/response/response-fixtures.js';

/**
 * The next release's additive migration runs while this one serves (docs/operations.md, "Health,
 * readiness and migrations"): a nullable column added to every table must leave every answer as
 * it was, on connections that already served the hot reads.
 */
describe('a release serving while the next one adds columns', {
  skip: TEST_DIALECT !== 'postgres' && 'PostgreSQL only: SQLite keeps no statement across a schema change',
}, () => {
  let h: ResponseHarness;
  let paths: string[];
  before(async () => {
    h = await createResponseHarness();
    const created = (await h.create(EN, EN_REVIEW, { department: 'Support', response: 'Rolling' })).json()
      .data;
    const id = created.id as string;
    paths = [
      `/response/v1/clientResponses/${id}`,
      `/response/v1/clientResponses/${id}/review`,
      `/response/v1/clientResponses/${id}/author`,
    ];
  });
  after(() => h.close());

  /** Each path a few times at once, so the pool's connections each parse their statements. */
  const answers = async () =>
    Promise.all(
      paths.flatMap((path) =>
        Array.from({ length: 8 }, async () => {
          const r = await h.call(path);
          return { path, status: r.statusCode, body: r.json() as unknown };
        }),
      ),
    );

  it('answers the same before and after a nullable column is added to each table', async () => {
    const before = await answers();
    for (const a of before) assert.equal(a.status, 200, a.path);
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      const schema = h.t.runtime.schema;
      const { rows } = await admin.query<{ table_name: string }>(
        `select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'`,
        [schema],
      );
      assert.ok(rows.length > 20);
      for (const { table_name } of rows) {
        await admin.query(`alter table ${schema}.${table_name} add column next_release_note text`);
      }
    } finally {
      await admin.end();
    }
    for (let round = 0; round < 3; round++) assert.deepEqual(await answers(), before);
  });
});
