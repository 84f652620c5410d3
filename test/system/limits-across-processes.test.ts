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
import { type Outcome, startConsumer, sumOutcomes } from './start-consumer.js';

const PROCESSES = 3;
const CALLS_PER_PASSKEY = 20;
const RATE_LIMIT = 25;
const QUOTA = 10;
const NOW = Date.UTC(2026, 10, 23, 10, 15, 18);

for (const store of COUNTER_STORES) {
  const where = store.name === 'redis' ? 'Redis' : TEST_DIALECT;
  describe(`limits across ${PROCESSES} processes on ${where}`, () => {
    let runtime: TestRuntime;
    let dir: string | undefined;
    let ratePasskey: Passkey;
    let quotaPasskey: Passkey;
    let outcome: Outcome;

    before(async () => {
      // Two processes on one SQLite database need a file; PostgreSQL runs share the test schema.
      dir = TEST_DIALECT === 'sqlite' ? mkdtempSync(join(tmpdir(), 'rpa-limits-')) : undefined;
      const databaseUrl = dir ? `sqlite:${join(dir, 'app.db')}` : TEST_DATABASE_URL;
      runtime = await createTestRuntime(store.env, { databaseUrl, clock: () => NOW });
      const { applicationId } = await seedDemo(runtime.deps, { environment: 'production' });
      const create = (ratePerMinute: number, quotaPerDay: number) =>
        createPasskey(runtime.deps, { applicationId, api: 'response', ratePerMinute, quotaPerDay });
      ratePasskey = (await create(RATE_LIMIT, 1000)).passkey;
      quotaPasskey = (await create(1000, QUOTA)).passkey;

      const consumers = Array.from({ length: PROCESSES }, () =>
        startConsumer({
          DATABASE_URL: databaseUrl,
          DATABASE_SCHEMA: runtime.schema ?? '',
          REDIS_URL: store.env.REDIS_URL ?? '',
          FIXED_NOW: String(NOW),
          PASSKEY_IDS: `${ratePasskey.id},${quotaPasskey.id}`,
          CALLS: String(CALLS_PER_PASSKEY),
        }),
      );
      // All processes have their store open before any of them starts charging.
      await Promise.all(consumers.map((c) => c.ready));
      for (const c of consumers) c.go();
      outcome = sumOutcomes(await Promise.all(consumers.map((c) => c.outcome)));
    });
    after(async () => {
      await runtime.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it(`admits exactly the rate limit (${RATE_LIMIT}) of ${PROCESSES * CALLS_PER_PASSKEY} concurrent calls`, () => {
      assert.deepEqual(outcome[ratePasskey.id], {
        allowed: RATE_LIMIT,
        rate: PROCESSES * CALLS_PER_PASSKEY - RATE_LIMIT,
        quota: 0,
      });
    });

    it(`admits exactly the daily quota (${QUOTA}) of ${PROCESSES * CALLS_PER_PASSKEY} concurrent calls`, () => {
      assert.deepEqual(outcome[quotaPasskey.id], {
        allowed: QUOTA,
        rate: 0,
        quota: PROCESSES * CALLS_PER_PASSKEY - QUOTA,
      });
    });

    it('left the counters as every process sees them: refused calls took nothing from the other policy', async () => {
      const rate = await runtime.http.limiter.consume(ratePasskey);
      assert.equal(rate.allowed, false);
      assert.match(rate.headers.ratelimit ?? '', /^"minute";r=0;t=\d+, "day";r=975;t=\d+$/);
      const quota = await runtime.http.limiter.consume(quotaPasskey);
      assert.equal(quota.allowed, false);
      assert.match(quota.headers.ratelimit ?? '', /^"minute";r=990;t=\d+, "day";r=0;t=\d+$/);
    });
  });
}
