import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { createPasskeyUsage } from '../../../src/services/tenancy/create-passkey-usage.js';
import { findPasskey } from '../../../src/services/tenancy/list-passkeys.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import type { Database } from '../../../src/store/schema.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

describe(`createPasskeyUsage on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;
  let demo: DemoCredentials;
  let now = Date.UTC(2026, 10, 27, 12);
  const lastUsed = async (id: string) =>
    (await findPasskey(rt.deps, { passkeyId: id, environment: 'production' })).lastUsedAt;

  before(async () => {
    rt = await createTestRuntime({}, { clock: () => now });
    demo = await seedDemo(rt.deps, { environment: 'production' });
  });
  after(() => rt.close());

  it('writes nothing until a flush, then the latest use of each passkey', async () => {
    const usage = createPasskeyUsage(rt.deps);
    usage.used(demo.responsePasskeyId);
    now += 1_000;
    usage.used(demo.responsePasskeyId);
    assert.equal(await lastUsed(demo.responsePasskeyId), null);
    await usage.flush();
    assert.equal(await lastUsed(demo.responsePasskeyId), now);
    assert.equal(await lastUsed(demo.privacyPasskeyId), null);
    await usage.close();
  });

  it('never moves a last use back: another instance may write an older one later', async () => {
    const later = now + 5_000;
    const first = createPasskeyUsage({ ...rt.deps, clock: () => later });
    const second = createPasskeyUsage(rt.deps);
    first.used(demo.privacyPasskeyId);
    second.used(demo.privacyPasskeyId);
    await first.close();
    await second.close();
    assert.equal(await lastUsed(demo.privacyPasskeyId), later);
  });

  it('keeps what it could not write for the next flush, and logs without failing the caller', async () => {
    const warnings: unknown[] = [];
    let broken = true;
    // Kysely keeps its state in private fields: its methods must run on the real object.
    const failing = new Proxy(rt.deps.store.db, {
      get(target, name) {
        if (broken && name === 'updateTable')
          return () => {
            throw new Error('connection refused');
          };
        const value = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Kysely<Database>;
    const usage = createPasskeyUsage({
      ...rt.deps,
      store: { ...rt.deps.store, db: failing },
      logger: { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger,
    });
    now += 60_000;
    const at = now;
    usage.used(demo.responsePasskeyId);
    await usage.flush();
    assert.equal(warnings.length, 1);
    assert.notEqual(await lastUsed(demo.responsePasskeyId), at);
    broken = false;
    await usage.close();
    assert.equal(await lastUsed(demo.responsePasskeyId), at);
  });

  it('flushes on its own every interval', async () => {
    const usage = createPasskeyUsage(rt.deps, { flushMs: 20 });
    now += 60_000;
    usage.used(demo.responsePasskeyId);
    for (let i = 0; i < 100 && (await lastUsed(demo.responsePasskeyId)) !== now; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await lastUsed(demo.responsePasskeyId), now);
    await usage.close();
  });
});
