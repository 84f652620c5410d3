import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { idempotencyKeyHash, requestFingerprint, sealAnswer } from '../../../src/domain/idempotency-key.js';
import { AppError } from '../../../src/errors.js';
import { purgeIdempotencyKeys } from '../../../src/services/idempotency/purge-idempotency-keys.js';
import { runIdempotently } from '../../../src/services/idempotency/run-idempotently.js';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import { createClient } from '../../../src/services/tenancy/create-client.js';
import { listClients } from '../../../src/services/tenancy/list-clients.js';
import { insertClient } from '../../../src/store/repositories/clients.js';
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
    for (const a of answers) assert.deepEqual(a.value.body, answers[0]?.value.body);
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
    const ids = new Set(answers.map((a) => a.value.body));
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
    assert.deepEqual(replay.value, { status: 201, body: { clientSecret: secret } });
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

/**
 * `work`, or a failure once `ms` have passed: a create waiting on a connection its own transaction
 * holds never settles, and a test must fail rather than hang.
 */
function settlesWithin<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

describe(`runIdempotently runs a create on the transaction of its key (${TEST_DIALECT})`, () => {
  let rt: TestRuntime;
  let applicationId: string;
  before(async () => {
    rt = await createTestRuntime();
    const created = await createApplication(rt.deps, {
      environment: 'production',
      name: 'Cached',
      clientNames: [],
    });
    applicationId = created.application.id;
  });
  after(() => rt.close());

  const request = (key: string) => ({ scope: 'admin:trx', key, fingerprint: 'f', callerSecret: 'c' });
  const clientRow = (name: string) => ({
    id: randomUUID(),
    environment: 'production' as const,
    name,
    createdAt: Date.now(),
  });
  const clientNamed = (name: string) =>
    rt.deps.store.db.selectFrom('clients').select('id').where('name', '=', name).executeTakeFirst();

  // On SQLite the transaction holds the store's one connection: a read through the cache or a
  // write through the group commit on the store's own handle would wait for it forever.
  it('completes a create that reads through the tenancy cache and writes through the group commit', async () => {
    const answer = await settlesWithin(
      5000,
      runIdempotently(rt.deps, request('trx-1'), async (deps) => {
        const grants = await deps.cache.grants.get(applicationId);
        const row = clientRow('Through-EN_GB');
        await deps.store.groupCommit((trx) => insertClient(trx, row));
        return { status: 201, body: { grants: grants.length, id: row.id } };
      }),
    );
    assert.equal(answer.replayed, false);
    assert.deepEqual(answer.value.body, { grants: 0, id: (await clientNamed('Through-EN_GB'))?.id });
  });

  it('undoes what the group commit wrote when the create then fails', async () => {
    await assert.rejects(
      settlesWithin(
        5000,
        runIdempotently(rt.deps, request('trx-2'), async (deps) => {
          await deps.store.groupCommit((trx) => insertClient(trx, clientRow('Undone-EN_GB')));
          throw new AppError('INVALID_REQUEST', { detail: 'failed after writing' });
        }),
      ),
      { code: 'INVALID_REQUEST' },
    );
    assert.equal(await clientNamed('Undone-EN_GB'), undefined);
  });
});

describe(`runIdempotently after a failure (${TEST_DIALECT})`, () => {
  let rt: TestRuntime;
  before(async () => {
    rt = await createTestRuntime();
  });
  after(() => rt.close());

  /** The runtime's services, their own reads of the store passing through `plugin`. */
  const depsWith = (plugin: KyselyPlugin) => ({
    ...rt.deps,
    store: { ...rt.deps.store, db: rt.deps.store.db.withPlugin(plugin) },
  });

  it("answers a failed create with the create's error, also when reading the key again fails", async () => {
    let failing = false;
    const deps = depsWith({
      transformQuery: (args) => args.node,
      async transformResult(args) {
        if (failing) throw new Error('the database stopped answering');
        return args.result;
      },
    });
    await assert.rejects(
      runIdempotently(
        deps,
        { scope: 'admin:fail', key: 'fail-1', fingerprint: 'f', callerSecret: 'c' },
        async () => {
          failing = true;
          throw new AppError('INVALID_REQUEST', { detail: 'the create failed' });
        },
      ),
      { code: 'INVALID_REQUEST', message: 'the create failed' },
    );
  });

  it('creates when the request that held the key is gone by the time the key is read again', async () => {
    // A first request with the same key and body: it holds the key when this one claims it, and it
    // did not commit (its row is gone) when this one reads the key again.
    const key = 'gone-1';
    const scope = 'admin:gone';
    const keyHash = idempotencyKeyHash(rt.deps.identifierKey, key);
    await rt.deps.store.db
      .insertInto('idempotency_keys')
      .values({
        scope,
        key_hash: keyHash,
        fingerprint: 'f',
        status: 201,
        sealed_answer: sealAnswer(
          { idempotencyKey: key, scope, callerSecret: 'c' },
          { status: 201, body: 0 },
        ),
        created_at: Date.now(),
      })
      .execute();
    let reads = 0;
    const deps = depsWith({
      transformQuery: (args) => args.node,
      async transformResult(args) {
        const row = args.result.rows[0] as Record<string, unknown> | undefined;
        if (!row || !('sealed_answer' in row)) return args.result;
        reads += 1;
        // The first read comes before the first request wrote the key; the second after it was undone.
        if (reads === 2)
          await rt.deps.store.db.deleteFrom('idempotency_keys').where('key_hash', '=', keyHash).execute();
        return reads <= 2 ? { ...args.result, rows: [] } : args.result;
      },
    });
    const answer = await runIdempotently(
      deps,
      { scope, key, fingerprint: 'f', callerSecret: 'c' },
      async (d) => ({
        status: 201,
        body: (await createClient(d, { environment: 'production', name: 'Gone-EN_GB' })).id,
      }),
    );
    assert.equal(answer.replayed, false);
    const created = await rt.deps.store.db
      .selectFrom('clients')
      .select('id')
      .where('name', '=', 'Gone-EN_GB')
      .execute();
    assert.deepEqual(
      created.map((c) => c.id),
      [answer.value.body],
    );
  });
});
