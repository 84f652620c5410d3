import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { requestFingerprint } from '../../../src/domain/idempotency-key.js';
import { purgeIdempotencyKeys } from '../../../src/services/idempotency/purge-idempotency-keys.js';
import { runIdempotently } from '../../../src/services/idempotency/run-idempotently.js';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import { createClient } from '../../../src/services/tenancy/create-client.js';
import { listClients } from '../../../src/services/tenancy/list-clients.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

describe(`runIdempotently on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let now = Date.UTC(2026, 10, 27, 12);
  before(async () => {
    rt = await createTestRuntime({}, { clock: () => now });
  });
  after(() => rt.close());

  const addClient = (name: string, key: string | undefined, scope = 'admin:test') =>
    runIdempotently(
      rt.deps,
      { scope, key, fingerprint: requestFingerprint('k', 'POST', '/clients', { name }), callerSecret: 'c' },
      async (deps) => ({ status: 201, body: await createClient(deps, { environment: 'production', name }) }),
    );
  const clientsNamed = async (name: string) =>
    (await listClients(rt.deps, { environment: 'production', limit: 1000 })).items.filter(
      (c) => c.name === name,
    );

  it('creates once for concurrent retries with one key, and answers each with the first result', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => addClient('Retry-EN_GB', 'key-1')));
    assert.equal((await clientsNamed('Retry-EN_GB')).length, 1);
    assert.equal(answers.filter((a) => !a.replayed).length, 1);
    for (const a of answers) assert.deepEqual(a.body, answers[0]?.body);
  });

  it('refuses the key with another request (422) and creates nothing', async () => {
    await addClient('First-EN_GB', 'key-2');
    await assert.rejects(addClient('Second-EN_GB', 'key-2'), { code: 'IDEMPOTENCY_KEY_REUSED' });
    assert.equal((await clientsNamed('Second-EN_GB')).length, 0);
  });

  it("keeps one caller's key apart from another's", async () => {
    const a = await addClient('ScopeA-EN_GB', 'shared', 'admin:a');
    const b = await addClient('ScopeB-EN_GB', 'shared', 'admin:b');
    assert.equal(a.replayed || b.replayed, false);
  });

  it('leaves no key when the create fails, so a corrected retry runs', async () => {
    await assert.rejects(addClient('not a name', 'key-3'), { code: 'INVALID_PROPERTY_VALUE' });
    await assert.rejects(addClient('not a name', 'key-3'), { code: 'INVALID_PROPERTY_VALUE' });
    const ok = await addClient('Fixed-EN_GB', 'key-4');
    assert.equal(ok.replayed, false);
  });

  it('forgets a key after 24 hours: it creates anew, and housekeeping deletes the old answer', async () => {
    await addClient('Old-EN_GB', 'key-5');
    now += 24 * 3_600_000 + 1;
    assert.ok((await purgeIdempotencyKeys(rt.deps)) >= 1);
    await assert.rejects(addClient('Old-EN_GB', 'key-5'), { code: 'CONFLICT' });
    const fresh = await addClient('New-EN_GB', 'key-5');
    assert.equal(fresh.replayed, false);
  });

  it('creates once when concurrent retries find the key expired', async () => {
    const addApp = () =>
      runIdempotently(
        rt.deps,
        { scope: 'admin:expiry', key: 'key-8', fingerprint: 'same', callerSecret: 'c' },
        async (deps) => ({
          status: 201,
          body: (await createApplication(deps, { environment: 'staging', name: 'Expiring', clientNames: [] }))
            .application.id,
        }),
      );
    await addApp();
    now += 24 * 3_600_000 + 1;
    const answers = await Promise.all(Array.from({ length: 6 }, addApp));
    const ids = new Set(answers.map((a) => a.body));
    assert.equal(ids.size, 1);
    const apps = await rt.deps.store.db
      .selectFrom('applications')
      .select('id')
      .where('name', '=', 'Expiring')
      .execute();
    assert.equal(apps.length, 2);
  });

  it('keeps the answer sealed: a secret in it is not in the database as text', async () => {
    const secret = 'rpa_cs_shown-once-in-the-answer';
    await runIdempotently(
      rt.deps,
      { scope: 'admin:seal', key: 'key-6', fingerprint: 'f', callerSecret: 'c' },
      async () => ({
        status: 201,
        body: { clientSecret: secret },
      }),
    );
    const replay = await runIdempotently(
      rt.deps,
      { scope: 'admin:seal', key: 'key-6', fingerprint: 'f', callerSecret: 'c' },
      () => assert.fail('must not run again'),
    );
    assert.deepEqual(replay.body, { clientSecret: secret });
    const rows = await rt.deps.store.db.selectFrom('idempotency_keys').selectAll().execute();
    const stored = JSON.stringify(rows);
    assert.ok(!stored.includes(secret) && !stored.includes('key-6'));
  });

  it('runs what a create does after its commit only once the key and object are committed', async () => {
    let committedWhenRun: boolean | undefined;
    await runIdempotently(
      rt.deps,
      { scope: 'admin:after', key: 'key-7', fingerprint: 'f', callerSecret: 'c' },
      async (deps) => {
        const client = await createClient(deps, { environment: 'production', name: 'After-EN_GB' });
        deps.afterCommit?.(async () => {
          committedWhenRun = (await clientsNamed('After-EN_GB')).some((c) => c.id === client.id);
        });
        return { status: 201, body: client };
      },
    );
    assert.equal(committedWhenRun, true);
  });
});
