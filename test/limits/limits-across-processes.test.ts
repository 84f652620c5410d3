import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Passkey } from '../../src/domain/passkey.js';
import { createPasskey } from '../../src/services/tenancy/create-passkey.js';
import { seedDemo } from '../../src/services/tenancy/seed-demo.js';
import {
  createTestRuntime,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
} from '../helpers/test-runtime.js';
import { COUNTER_STORES } from './limit-fixtures.js';

const PROCESSES = 3;
const CALLS_PER_PASSKEY = 20;
const RATE_LIMIT = 25;
const QUOTA = 10;
const NOW = Date.UTC(2026, 10, 23, 10, 15, 18);
const CONSUMER = fileURLToPath(new URL('./burst-consumer.ts', import.meta.url));

type Outcome = Record<string, { allowed: number; rate: number; quota: number }>;

interface Consumer {
  readonly ready: Promise<void>;
  readonly outcome: Promise<Outcome>;
  go(): void;
}

function startConsumer(env: Record<string, string>): Consumer {
  const child = spawn(process.execPath, ['--import', 'tsx', CONSUMER], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const outcome = new Promise<Outcome>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'ready') markReady();
      else resolve(JSON.parse(line) as Outcome);
    });
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`consumer exited with ${code}`));
    });
  });
  return { ready, outcome, go: () => child.stdin.end('go\n') };
}

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
      const outcomes = await Promise.all(consumers.map((c) => c.outcome));
      outcome = {};
      for (const o of outcomes) {
        for (const [id, counts] of Object.entries(o)) {
          outcome[id] ??= { allowed: 0, rate: 0, quota: 0 };
          const sum = outcome[id]!;
          sum.allowed += counts.allowed;
          sum.rate += counts.rate;
          sum.quota += counts.quota;
        }
      }
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
