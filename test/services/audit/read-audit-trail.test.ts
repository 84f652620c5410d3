import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodePageCursor } from '../../../src/domain/page-cursor.js';
import { AppError } from '../../../src/errors.js';
import { readAuditTrail } from '../../../src/services/audit/read-audit-trail.js';
import { recordAudit } from '../../../src/services/audit/record-audit.js';
import type { PageOrder } from '../../../src/store/keyset-page.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

const START = Date.UTC(2026, 10, 28, 9, 0, 0);

describe(`readAuditTrail on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let now = START;
  let all: string[];

  before(async () => {
    rt = await createTestRuntime({}, { clock: () => now });
    const entry = (targetId: string, action: 'client.created' | 'passkey.revoked' = 'client.created') => ({
      action,
      targetType: action === 'client.created' ? ('client' as const) : ('passkey' as const),
      targetId,
      details: {},
    });
    for (let i = 0; i < 4; i++) {
      now += 1000;
      await recordAudit(rt.deps.store.db, rt.deps, entry(`a-${i}`));
    }
    // Four in one millisecond, so pages split between equal times and the id decides.
    await recordAudit(rt.deps.store.db, rt.deps, ...['b-0', 'b-1', 'b-2', 'b-3'].map((id) => entry(id)));
    now += 1000;
    await recordAudit(rt.deps.store.db, rt.deps, entry('c-0', 'passkey.revoked'));
    // Read straight from the table: the order pages must follow, not what paging makes of it.
    all = (
      await rt.deps.store.db
        .selectFrom('audit_events')
        .select('id')
        .orderBy('occurred_at')
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
  });
  after(() => rt.close());

  async function every(input: { limit: number; order?: PageOrder; since?: number; action?: string }) {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await readAuditTrail(rt.deps, { ...input, ...(cursor ? { cursor } : {}) });
      assert.ok(page.items.length <= input.limit);
      ids.push(...page.items.map((e) => e.id));
      if (page.nextCursor === null) return ids;
      cursor = page.nextCursor;
    }
  }

  it('pages the whole trail either way, at any page size, neither skipping nor repeating', async () => {
    assert.equal(all.length, 9);
    for (const limit of [1, 2, 3, 5, 9, 10]) {
      assert.deepEqual(await every({ limit }), all, `oldest first by ${limit}`);
      assert.deepEqual(await every({ limit, order: 'desc' }), all.toReversed(), `newest first by ${limit}`);
    }
  });

  it('filters by time, action and target', async () => {
    const since = await every({ limit: 2, since: START + 4000, order: 'desc' });
    assert.deepEqual(since, all.slice(3).toReversed());
    assert.deepEqual(await every({ limit: 2, action: 'passkey.revoked' }), all.slice(-1));
    const about = await readAuditTrail(rt.deps, { targetId: 'a-2' });
    assert.deepEqual(
      about.items.map((e) => e.targetId),
      ['a-2'],
    );
    assert.equal(about.nextCursor, null);
  });

  it('starts after the position a cursor names and refuses one it did not issue', async () => {
    const cursor = encodePageCursor({ at: START + 4000, id: '~' });
    const newer = await readAuditTrail(rt.deps, { cursor, order: 'asc' });
    assert.deepEqual(
      newer.items.map((e) => e.id),
      all.slice(-1),
    );
    await assert.rejects(
      readAuditTrail(rt.deps, { cursor: 'not-a-cursor' }),
      (err) => err instanceof AppError && err.code === 'INVALID_QUERY_PARAMETER',
    );
  });
});
