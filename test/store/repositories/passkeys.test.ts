import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Passkey } from '../../../src/domain/passkey.js';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import {
  findDefaultPasskey,
  findPasskeyListing,
  insertPasskey,
  pagePasskeys,
  recordPasskeyUses,
  updatePasskey,
} from '../../../src/store/repositories/passkeys.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

const NOW = Date.UTC(2026, 10, 27, 12);

describe(`passkeys repository on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let appId: string;
  let otherAppId: string;
  const passkey = (id: string, over: Partial<Passkey> = {}): Passkey => ({
    id,
    environment: 'production',
    applicationId: appId,
    api: 'response',
    keyHint: id.slice(-4),
    ratePerMinute: 60,
    quotaPerDay: 1000,
    status: 'active',
    isDefault: false,
    createdAt: NOW,
    expiresAt: null,
    revokedAt: null,
    ...over,
  });
  const insert = (p: Passkey) => insertPasskey(rt.deps.store.db, p, `hash-${p.id}`);

  before(async () => {
    rt = await createTestRuntime();
    const name = (n: string) => ({ environment: 'production' as const, name: n, clientNames: [] });
    appId = (await createApplication(rt.deps, name('Repository'))).application.id;
    otherAppId = (await createApplication(rt.deps, name('Other'))).application.id;
    // Two created in the same millisecond: the id breaks the tie.
    await insert(passkey('pk-b', { isDefault: true, expiresAt: NOW + 1000 }));
    await insert(passkey('pk-a', { createdAt: NOW }));
    await insert(passkey('pk-c', { createdAt: NOW + 1, status: 'revoked', revokedAt: NOW + 2 }));
    await insert(passkey('pk-d', { createdAt: NOW + 2, applicationId: otherAppId }));
    await insert(passkey('pk-e', { createdAt: NOW - 1, environment: 'staging', applicationId: otherAppId }));
  });
  after(() => rt.close());

  it('keeps the expiry and reads the last use back as a number', async () => {
    const read = await findPasskeyListing(rt.deps.store.db, 'pk-b');
    assert.equal(read?.expiresAt, NOW + 1000);
    assert.equal(read?.lastUsedAt, null);
    await recordPasskeyUses(rt.deps.store.db, [{ passkeyId: 'pk-b', at: NOW + 5 }]);
    await recordPasskeyUses(rt.deps.store.db, [{ passkeyId: 'pk-b', at: NOW + 4 }]);
    assert.equal((await findPasskeyListing(rt.deps.store.db, 'pk-b'))?.lastUsedAt, NOW + 5);
    assert.equal(await findPasskeyListing(rt.deps.store.db, 'nope'), undefined);
  });

  it("pages one environment's passkeys in (created_at, id) order, one application's when named", async () => {
    const db = rt.deps.store.db;
    const ids = (rows: readonly Passkey[]) => rows.map((p) => p.id);
    assert.deepEqual(ids(await pagePasskeys(db, { environment: 'production' }, null, 10)), [
      'pk-a',
      'pk-b',
      'pk-c',
      'pk-d',
    ]);
    const first = await pagePasskeys(db, { environment: 'production', applicationId: appId }, null, 2);
    assert.deepEqual(ids(first), ['pk-a', 'pk-b']);
    const last = first.at(-1) as Passkey;
    const rest = await pagePasskeys(
      db,
      { environment: 'production', applicationId: appId },
      { at: last.createdAt, id: last.id },
      2,
    );
    assert.deepEqual(ids(rest), ['pk-c']);
    assert.deepEqual(ids(await pagePasskeys(db, { environment: 'staging' }, null, 10)), ['pk-e']);
  });

  it('charges the default while it is usable at the time asked, then the oldest usable one', async () => {
    const db = rt.deps.store.db;
    assert.equal((await findDefaultPasskey(db, appId, NOW + 999))?.id, 'pk-b');
    assert.equal((await findDefaultPasskey(db, appId, NOW + 1000))?.id, 'pk-a');
  });

  it('sets and clears an expiry', async () => {
    const db = rt.deps.store.db;
    assert.equal(await updatePasskey(db, 'pk-a', { expiresAt: NOW + 10 }), 1);
    assert.equal((await findPasskeyListing(db, 'pk-a'))?.expiresAt, NOW + 10);
    await updatePasskey(db, 'pk-a', { expiresAt: null, quotaPerDay: 7 });
    const cleared = await findPasskeyListing(db, 'pk-a');
    assert.deepEqual([cleared?.expiresAt, cleared?.quotaPerDay], [null, 7]);
  });
});
