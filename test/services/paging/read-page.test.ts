import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodePageCursor } from '../../../src/domain/page-cursor.js';
import { createClient } from '../../../src/services/tenancy/create-client.js';
import { listClients } from '../../../src/services/tenancy/list-clients.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

describe(`paged lists on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let now = Date.UTC(2026, 10, 27, 12);
  const existing: string[] = [];
  before(async () => {
    rt = await createTestRuntime({}, { clock: () => now });
    // Many with the same creation time: the id decides their order.
    for (let i = 0; i < 30; i++)
      existing.push((await createClient(rt.deps, { environment: 'staging', name: `Tie-${i}` })).id);
    for (let i = 0; i < 20; i++) {
      now += 1;
      existing.push((await createClient(rt.deps, { environment: 'staging', name: `Old-${i}` })).id);
    }
  });
  after(() => rt.close());

  it('neither skips nor repeats an item while others are created between and during pages', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let created = 0;
    do {
      // Creations racing the read of the page, and more between pages.
      const racing = Array.from({ length: 3 }, () => {
        now += 1;
        return createClient(rt.deps, { environment: 'staging', name: `New-${created++}` });
      });
      const [page] = await Promise.all([
        listClients(rt.deps, { environment: 'staging', limit: 7, ...(cursor ? { cursor } : {}) }),
        ...racing,
      ]);
      seen.push(...page.items.map((c) => c.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined && created < 300);
    assert.equal(new Set(seen).size, seen.length, 'an item was repeated');
    for (const id of existing) assert.ok(seen.includes(id), `item ${id} was skipped`);
  });

  it('keeps to the environment and answers a last page with no next cursor', async () => {
    await createClient(rt.deps, { environment: 'production', name: 'Elsewhere' });
    const page = await listClients(rt.deps, { environment: 'production' });
    assert.deepEqual(
      page.items.map((c) => c.name),
      ['Elsewhere'],
    );
    assert.equal(page.nextCursor, null);
  });

  it('refuses a cursor it did not issue, and takes one it did', async () => {
    for (const cursor of ['nope!', Buffer.from('[1]').toString('base64url'), 'x'.repeat(300)]) {
      await assert.rejects(listClients(rt.deps, { environment: 'staging', cursor }), {
        code: 'INVALID_QUERY_PARAMETER',
      });
    }
    const page = await listClients(rt.deps, {
      environment: 'staging',
      cursor: encodePageCursor({ at: Number.MAX_SAFE_INTEGER, id: 'z' }),
    });
    assert.deepEqual(page.items, []);
  });
});
