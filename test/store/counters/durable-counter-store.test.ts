import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { Passkey } from '../../../src/domain/passkey.js';
import { isAppError } from '../../../src/errors.js';
import type { LimitDecision } from '../../../src/services/limits/limit-decision.js';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import { seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { type CounterSpec, CounterStoreUnavailable } from '../../../src/store/counters/counter-store.js';
import {
  createDurableCounterStore,
  WRITE_THROUGH_BOUND_MS,
} from '../../../src/store/counters/durable-counter-store.js';
import { createRedisCounterStore } from '../../../src/store/counters/redis-counter-store.js';
import {
  createSqlCounterStore,
  type SqlCounterStore,
} from '../../../src/store/counters/sql-counter-store.js';
import { freePort, killRedis, startRedis } from '../../helpers/redis-server.js';
import {
  createTestRuntime,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
  uniqueSchema,
} from '../../helpers/test-runtime.js';

const NOW = Date.UTC(2026, 10, 23, 10, 15, 18);
const RATE_LIMIT = 50;
const QUOTA = 20;
/** Settle period (4 s) and reconnection included, with room to spare. */
const RECOVERY_BOUND_MS = 30_000;

type Outcome = 'allowed' | 'refused' | 'unavailable';

/** The remaining allowance a decision advertises per policy, by policy name. */
function remaining(decision: LimitDecision): Record<string, number> {
  const fields = decision.headers.ratelimit ?? '';
  return Object.fromEntries([...fields.matchAll(/"(\w+)";r=(\d+)/g)].map((m) => [m[1], Number(m[2])]));
}

describe(`a Redis restarted empty, under two instances on ${TEST_DIALECT}`, () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let dir: string | undefined;
  const runtimes: TestRuntime[] = [];
  let ratePasskey: Passkey;
  let quotaPasskey: Passkey;
  /** Per passkey, what each instance answered, and the last remaining allowance it advertised. */
  const admitted = new Map<string, number>();
  const lastRemaining = new Map<string, Record<string, number>>();

  async function charge(instance: number, passkey: Passkey): Promise<Outcome> {
    let decision: LimitDecision;
    try {
      decision = await runtimes[instance]!.http.limiter.consume(passkey);
    } catch (err) {
      if (isAppError(err) && err.code === 'SERVICE_UNAVAILABLE') return 'unavailable';
      throw err;
    }
    const key = `${instance}:${passkey.id}`;
    const seen = remaining(decision);
    const before = lastRemaining.get(key);
    if (before) {
      for (const [policy, left] of Object.entries(seen)) {
        assert.ok(
          left <= before[policy]!,
          `instance ${instance} advertised ${policy} r=${left} after r=${before[policy]}: the counters went back`,
        );
      }
    }
    if (Object.keys(seen).length) lastRemaining.set(key, seen);
    if (!decision.allowed) return 'refused';
    admitted.set(passkey.id, (admitted.get(passkey.id) ?? 0) + 1);
    return 'allowed';
  }

  before(async () => {
    port = await freePort();
    redis = await startRedis(port);
    dir = TEST_DIALECT === 'sqlite' ? mkdtempSync(join(tmpdir(), 'rpa-durable-')) : undefined;
    const databaseUrl = dir ? `sqlite:${join(dir, 'app.db')}` : TEST_DATABASE_URL;
    const schema = uniqueSchema();
    for (let i = 0; i < 2; i += 1) {
      runtimes.push(
        await createTestRuntime(
          { REDIS_URL: `redis://127.0.0.1:${port}` },
          { databaseUrl, schema, keepSchema: i === 0, clock: () => NOW },
        ),
      );
    }
    const { applicationId } = await seedDemo(runtimes[0]!.deps, { environment: 'production' });
    const create = async (ratePerMinute: number, quotaPerDay: number) =>
      (await createPasskey(runtimes[0]!.deps, { applicationId, api: 'response', ratePerMinute, quotaPerDay }))
        .passkey;
    ratePasskey = await create(RATE_LIMIT, 1000);
    quotaPasskey = await create(1000, QUOTA);
    // Allowance leased by a Redis not yet up long enough is refused: wait out its settle period.
    const until = Date.now() + RECOVERY_BOUND_MS;
    while ((await charge(0, quotaPasskey)) === 'unavailable' && Date.now() < until) await sleep(200);
  });
  after(async () => {
    for (const runtime of runtimes.reverse()) await runtime.close();
    await killRedis(redis);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('admits no more than the policies allow across the restart, and no remaining allowance goes back up', async () => {
    for (let i = 0; i < 30; i += 1) assert.equal(await charge(i % 2, ratePasskey), 'allowed');
    for (let i = 1; i < 12; i += 1) assert.equal(await charge(i % 2, quotaPasskey), 'allowed');

    await killRedis(redis);
    redis = await startRedis(port);

    // Both instances charge both passkeys until each has been refused by both policies' limits.
    const refused = new Set<string>();
    const until = Date.now() + RECOVERY_BOUND_MS;
    while (refused.size < 4 && Date.now() < until) {
      for (const instance of [0, 1]) {
        for (const passkey of [ratePasskey, quotaPasskey]) {
          if ((await charge(instance, passkey)) === 'refused') refused.add(`${instance}:${passkey.id}`);
        }
      }
      await sleep(20);
    }
    assert.equal(refused.size, 4, 'every instance comes to be refused by the limits, not by the outage');
    assert.ok(admitted.get(ratePasskey.id)! <= RATE_LIMIT, `admitted ${admitted.get(ratePasskey.id)}`);
    assert.ok(admitted.get(quotaPasskey.id)! <= QUOTA, `admitted ${admitted.get(quotaPasskey.id)}`);
    assert.ok(admitted.get(ratePasskey.id)! > 30, 'calls are admitted again after the restart');
  });

  it('admits nothing of a grant whose write-through fails or comes too late, and keeps it counted', async () => {
    // A generous timeout: what is tested is the database's part, not Redis answering on a busy machine.
    const client = new Redis(`redis://127.0.0.1:${port}`, { commandTimeout: 10_000 });
    client.on('error', () => {});
    try {
      await client.ping();
      const sql = createSqlCounterStore(runtimes[0]!.deps.store);
      // No settle period: what is tested here is the write-through alone.
      const redisStore = createRedisCounterStore(client, 'write-through');
      const failing: SqlCounterStore = { ...sql, record: () => Promise.reject(new Error('database gone')) };
      const late: SqlCounterStore = {
        ...sql,
        record: (...args) => sleep(WRITE_THROUGH_BOUND_MS + 500).then(() => sql.record(...args)),
      };
      const spec = (key: string): CounterSpec[] => [{ key, limit: 10, freshWindowEnd: NOW + 60_000 }];
      for (const [name, copy] of [
        ['fails', failing],
        ['late', late],
      ] as const) {
        const store = createDurableCounterStore(redisStore, copy);
        const key = `{wt:${name}}:minute`;
        await assert.rejects(
          store.lease(spec(key), NOW, 4),
          (err) => err instanceof CounterStoreUnavailable && err.dependency === 'database',
        );
        assert.equal((await redisStore.peek(key, NOW)).hits, 4, 'the grant stays counted in Redis');
      }
    } finally {
      client.disconnect();
    }
  });
});
