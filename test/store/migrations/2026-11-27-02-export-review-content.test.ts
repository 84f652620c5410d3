import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Migrator } from 'kysely';
import { buildServer } from '../../../src/http/build-server.js';
import { migrations } from '../../../src/store/migrate.js';
import {
  drainPrivacyQueue,
  importReviewsBy,
  privacyClient,
  seedPrivacyTenant,
} from '../../helpers/privacy-fixtures.js';
import { createTestRuntime, TEST_DIALECT } from '../../helpers/test-runtime.js';

const NAME = '2026-11-27-02-export-review-content';

describe(`migration ${NAME} (${TEST_DIALECT})`, () => {
  it('turns the sections of the previous version into a row per review and back, the export unchanged', async () => {
    const t = await createTestRuntime();
    const app = await buildServer(t.http);
    try {
      const db = t.deps.store.db;
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => ({ ...migrations }) },
        ...(t.schema ? { migrationTableSchema: t.schema } : {}),
      });
      const names = Object.keys(migrations);
      const previous = names[names.indexOf(NAME) - 1] as string;
      const tenant = await seedPrivacyTenant(t.deps);
      const person = { name: 'Olga Older', emailAddress: 'olga.older@example.com' };
      await importReviewsBy(t.deps, person, { clientName: 'Acme-EN_GB', count: 3 });
      await importReviewsBy(t.deps, person, { clientName: 'Acme-DE_DE', count: 2 });
      const c = privacyClient(app, tenant);
      const filed = await c.post('access', { emailAddress: person.emailAddress });
      assert.equal(filed.statusCode, 201, filed.body);
      await drainPrivacyQueue(t.deps);
      const download = async () => {
        const res = await c.get(`/accessRequests/${filed.json().id}/export`);
        assert.equal(res.statusCode, 200, res.body);
        return res.json() as { clients: { clientName: string; reviews: unknown[] }[] };
      };
      const rows = () =>
        db
          .selectFrom('privacy_export_reviews')
          .select(['request_id', 'client_id', 'review_id', 'content'])
          .orderBy('client_id')
          .orderBy('review_id')
          .execute();
      const exported = await download();
      const rowsBefore = await rows();
      assert.equal(rowsBefore.length, 5);

      assert.equal((await migrator.migrateTo(previous)).error, undefined);
      // The previous version's form: each section one document, as it downloads them.
      const documents = await db
        .selectFrom('privacy_exports')
        .select(['client_name', 'content'])
        .orderBy('client_name')
        .execute();
      assert.deepEqual(
        documents.map((d) => JSON.parse(d.content)),
        exported.clients,
      );

      assert.equal((await migrator.migrateToLatest()).error, undefined);
      assert.deepEqual(await rows(), rowsBefore);
      const left = await db.selectFrom('privacy_exports').select('content').execute();
      assert.deepEqual(
        left.map((d) => d.content),
        ['', ''],
      );
      assert.deepEqual(await download(), exported);
    } finally {
      await app.close();
      await t.close();
    }
  });
});
