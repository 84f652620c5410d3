import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Passkey } from '../../src/domain/passkey.js';
import { createPasskey } from '../../src/services/tenancy/create-passkey.js';
import { seedDemo } from '../../src/services/tenancy/seed-demo.js';
import { COUNTER_STORES } from '../helpers/limit-fixtures.js';
import {
  createTestRuntime,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
} from '../helpers/test-runtime.js';
import { startConsumer, sumOutcomes } from './start-consumer.js';

const PROCESSES = 3;
/** 18 s into a minute: every round of every process stays within it. */
const NOW = Date.UTC(2026, 10, 23, 10, 15, 18);
const LEASE_MS = 1000;
const MINUTE = 60_000;

/**
 * The most a policy can under-admit because of one other instance: the slice it leased ahead of
 * demand, at most a quarter of what the policy had left (at least 1), docs/design.md, Limits.
 */
const slice = (limit: number) => Math.max(1, Math.floor(limit / 4));

for (const store of COUNTER_STORES) {
  const where = store.name === 'redis' ? 'Redis' : TEST_DIALECT;
  describe(`leased allowance across processes on ${where}`, () => {
    let clockNow = NOW;
    let runtime: TestRuntime;
    let dir: string | undefined;
    let databaseUrl: string;
    let applicationId: string;

    before(async () => {
      dir = TEST_DIALECT === 'sqlite' ? mkdtempSync(join(tmpdir(), 'rpa-leasing-')) : undefined;
      databaseUrl = dir ? `sqlite:${join(dir, 'app.db')}` : TEST_DATABASE_URL;
      runtime = await createTestRuntime(store.env, { databaseUrl, clock: () => clockNow });
      applicationId = (await seedDemo(runtime.deps, { environment: 'production' })).applicationId;
    });
    after(async () => {
      await runtime.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const passkey = async (ratePerMinute: number): Promise<Passkey> =>
      (
        await createPasskey(runtime.deps, {
          applicationId,
          api: 'response',
          ratePerMinute,
          quotaPerDay: 100_000,
        })
      ).passkey;

    const consumerEnv = (p: Passkey, extra: Record<string, string>) => ({
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: runtime.schema ?? '',
      REDIS_URL: store.env.REDIS_URL ?? '',
      FIXED_NOW: String(NOW),
      PASSKEY_IDS: p.id,
      LEASE_MS: String(LEASE_MS),
      ...extra,
    });

    /** Calls this process admits before the first refusal. */
    async function admitUntilRefused(p: Passkey): Promise<number> {
      let admitted = 0;
      while ((await runtime.http.limiter.consume(p)).allowed) admitted += 1;
      return admitted;
    }

    it(`never admits more than a limit that is no multiple of the slices, with ${PROCESSES} processes leasing ahead`, async () => {
      clockNow = NOW;
      const limit = 47;
      const p = await passkey(limit);
      const consumers = Array.from({ length: PROCESSES }, () =>
        startConsumer(consumerEnv(p, { CALLS: '5', ROUNDS: '6' })),
      );
      await Promise.all(consumers.map((c) => c.ready));
      for (const c of consumers) c.go();
      const total = sumOutcomes(await Promise.all(consumers.map((c) => c.outcome)))[p.id]!;
      assert.equal(total.allowed + total.rate, PROCESSES * 5 * 6);
      assert.ok(total.allowed <= limit, `${total.allowed} admitted, limit ${limit}`);
      assert.ok(
        total.allowed >= limit - (PROCESSES - 1) * slice(limit),
        `${total.allowed} admitted, under-admission beyond the bound`,
      );
      // The processes gave back what they held when they closed: the rest is there for this one.
      clockNow = NOW + 6 * LEASE_MS;
      assert.equal(total.allowed + (await admitUntilRefused(p)), limit);
    });

    it('loses at most one slice to a process killed while holding it, until the window ends', async () => {
      clockNow = NOW;
      const limit = 40;
      const p = await passkey(limit);
      const holder = startConsumer(consumerEnv(p, { CALLS: '6', ROUNDS: '3', LAST_CALLS: '1', HOLD: '1' }));
      await holder.ready;
      holder.go();
      const held = (await holder.outcome)[p.id]!;
      assert.equal(held.allowed, 13);
      await holder.kill();

      clockNow = NOW + 3 * LEASE_MS;
      const admitted = await admitUntilRefused(p);
      assert.ok(held.allowed + admitted <= limit, `${held.allowed} + ${admitted} admitted, limit ${limit}`);
      assert.ok(
        held.allowed + admitted >= limit - slice(limit),
        `${held.allowed} + ${admitted}: more than a slice lost`,
      );

      // The lost slice lapses with its window; the next minute offers the whole limit.
      clockNow = NOW - (NOW % MINUTE) + MINUTE;
      const next = await runtime.http.limiter.consume(p);
      assert.equal(next.allowed, true);
      assert.match(next.headers.ratelimit ?? '', /^"minute";r=39;t=60,/);
    });
  });
}
