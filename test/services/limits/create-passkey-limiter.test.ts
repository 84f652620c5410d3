import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Passkey } from '../../../src/domain/passkey.js';
import { AppError } from '../../../src/errors.js';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import { seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { updatePasskey } from '../../../src/services/tenancy/update-passkey.js';
import { COUNTER_STORES, testClock } from '../../helpers/limit-fixtures.js';
import {
  createTestRuntime,
  dropSchema,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
  uniqueSchema,
} from '../../helpers/test-runtime.js';

/** LIMIT_LEASE_MS's default. */
const LEASE_MS = 1000;

for (const store of COUNTER_STORES) {
  describe(`leased allowance of one passkey on ${store.name === 'redis' ? 'Redis' : TEST_DIALECT}`, () => {
    const clock = testClock();
    let dir: string | undefined;
    let databaseUrl: string;
    const schema = TEST_DIALECT === 'postgres' ? uniqueSchema() : undefined;
    let runtime: TestRuntime;
    let applicationId: string;
    const opened: TestRuntime[] = [];

    /** Another instance on the same database (and Redis): same counters, its own leases. */
    async function instance(env: Record<string, string> = {}): Promise<TestRuntime> {
      const other = await createTestRuntime(
        { ...store.env, ...env },
        { databaseUrl, clock: clock.now, keepSchema: true, ...(schema ? { schema } : {}) },
      );
      opened.push(other);
      return other;
    }

    before(async () => {
      dir = TEST_DIALECT === 'sqlite' ? mkdtempSync(join(tmpdir(), 'rpa-lease-')) : undefined;
      databaseUrl = dir ? `sqlite:${join(dir, 'app.db')}` : TEST_DATABASE_URL;
      runtime = await instance();
      applicationId = (await seedDemo(runtime.deps, { environment: 'production' })).applicationId;
    });
    after(async () => {
      for (const r of opened) await r.close();
      if (schema) await dropSchema(databaseUrl, schema);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const passkey = async (ratePerMinute: number, quotaPerDay = 100_000): Promise<Passkey> =>
      (await createPasskey(runtime.deps, { applicationId, api: 'response', ratePerMinute, quotaPerDay }))
        .passkey;

    async function consumeTimes(r: TestRuntime, p: Passkey, n: number): Promise<number> {
      let admitted = 0;
      for (let i = 0; i < n; i += 1) if ((await r.http.limiter.consume(p)).allowed) admitted += 1;
      return admitted;
    }

    /**
     * Calls in one lease period, then one in the next: the instance then leases ahead what the
     * first period spent, and holds all of it but the one call.
     */
    async function leaseAhead(r: TestRuntime, p: Passkey, perPeriod: number): Promise<void> {
      assert.equal(await consumeTimes(r, p, perPeriod), perPeriod);
      clock.advance(LEASE_MS);
      assert.equal(await consumeTimes(r, p, 1), 1);
    }

    it('keeps counts across a restart: what one runtime admitted, the next finds counted', async () => {
      clock.set(Date.UTC(2026, 10, 23, 10, 15, 18));
      const p = await passkey(1000);
      const first = await instance();
      await leaseAhead(first, p, 10);
      await first.close();
      const second = await instance();
      const next = await second.http.limiter.consume(p);
      // 11 admitted before, this one is the 12th: what the first held unspent came back.
      assert.equal(next.headers.ratelimit, '"minute";r=988;t=41, "day";r=99988;t=49481');
    });

    it('tells what remains truthfully while holding a slice, and applies a lowered limit to the next call', async () => {
      clock.set(Date.UTC(2026, 10, 23, 11, 0, 0));
      let p = await passkey(100);
      await leaseAhead(runtime, p, 10);
      const held = await runtime.http.limiter.consume(p);
      assert.match(held.headers.ratelimit ?? '', /^"minute";r=88;/);
      // 12 admitted: a limit of 13 leaves exactly one more, whatever this instance held.
      p = await updatePasskey(runtime.deps, { passkeyId: p.id, ratePerMinute: 13 });
      const last = await runtime.http.limiter.consume(p);
      assert.equal(last.allowed, true);
      assert.equal(last.headers['ratelimit-policy'], '"minute";q=13;w=60, "day";q=100000;w=86400');
      assert.match(last.headers.ratelimit ?? '', /^"minute";r=0;/);
      const refused = await runtime.http.limiter.consume(p);
      assert.equal(refused.allowed, false);
      assert.equal(refused.exceeded, 'rate');
      // Raised again: the next call is served at once.
      p = await updatePasskey(runtime.deps, { passkeyId: p.id, ratePerMinute: 14 });
      assert.equal((await runtime.http.limiter.consume(p)).allowed, true);
      assert.equal((await runtime.http.limiter.consume(p)).allowed, false);
    });

    it('answers from memory only calls its held allowance covers, never past the limit', async () => {
      clock.set(Date.UTC(2026, 10, 23, 12, 30, 0));
      const p = await passkey(20);
      const { limiter } = runtime.http;
      // Nothing leased yet: the store must be asked.
      assert.equal(limiter.consumeHeld(p), undefined);
      let admitted = 0;
      let fromMemory = 0;
      for (let i = 0; i < 40; i += 1) {
        const held = limiter.consumeHeld(p);
        if (held) {
          assert.equal(held.allowed, true);
          assert.match(held.headers.ratelimit ?? '', /^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
          fromMemory += 1;
          admitted += 1;
        } else if ((await limiter.consume(p)).allowed) {
          admitted += 1;
        }
      }
      assert.equal(admitted, 20);
      assert.ok(fromMemory > 0, 'no call was answered from leased allowance');
      assert.equal(limiter.consumeHeld(p), undefined);

      // Other numbers: allowance leased under the old ones does not answer for them.
      let q = await passkey(100);
      await leaseAhead(runtime, q, 10);
      assert.ok(limiter.consumeHeld(q));
      q = await updatePasskey(runtime.deps, { passkeyId: q.id, ratePerMinute: 50 });
      assert.equal(limiter.consumeHeld(q), undefined);
      const next = await limiter.consume(q);
      assert.equal(next.allowed, true);
      assert.match(next.headers.ratelimit ?? '', /^"minute";r=37;/);
      // A lease period later, nothing held counts any more.
      clock.advance(LEASE_MS);
      assert.equal(limiter.consumeHeld(q), undefined);
    });

    it('hands what an instance held back to the others when it closes', async () => {
      clock.set(Date.UTC(2026, 10, 23, 12, 0, 0));
      const p = await passkey(20);
      const holder = await instance();
      await leaseAhead(holder, p, 4);
      const other = await instance();
      const before = await consumeTimes(other, p, 20);
      assert.ok(before < 15, `${before}: the holder held nothing`);
      await holder.close();
      assert.equal(before + (await consumeTimes(other, p, 20)), 15);
    });

    if (store.name === 'redis') {
      it('goes on serving a slice it holds while Redis is unreachable, then refuses with 503 (closed)', async () => {
        clock.set(Date.UTC(2026, 10, 23, 14, 0, 0));
        const p = await passkey(1000);
        const cut = await instance({ RATE_LIMIT_FAIL_MODE: 'closed' });
        await leaseAhead(cut, p, 5);
        cut.deps.redis?.disconnect();
        // 5 leased ahead, 1 of them spent: 4 more are served from memory.
        assert.equal(await consumeTimes(cut, p, 4), 4);
        await assert.rejects(cut.http.limiter.consume(p), (err: unknown) => {
          assert.ok(err instanceof AppError);
          assert.equal(err.code, 'SERVICE_UNAVAILABLE');
          return true;
        });
      });
    }

    if (store.name === 'database') {
      it('grows its slices from a cold start: 1,000 calls in one period take a few store writes, not one each', async () => {
        clock.set(Date.UTC(2026, 10, 23, 14, 0, 0));
        const p = await passkey(1_000_000, 10_000_000);
        const r = await instance();
        const { store: db } = r.deps;
        const groupCommit = db.groupCommit;
        let writes = 0;
        Object.assign(db, {
          groupCommit: ((work, keep) => {
            writes += 1;
            return groupCommit(work, keep);
          }) satisfies typeof groupCommit,
        });
        try {
          assert.equal(await consumeTimes(r, p, 1000), 1000);
        } finally {
          Object.assign(db, { groupCommit });
        }
        // Doubling: 1 + 1 + 2 + 4 + ... reaches 1,000 in about log2(1,000) leases.
        assert.ok(writes <= 12, `${writes} store writes for 1000 calls`);
      });
    }

    it('hands what an instance held back to the others after a lease period unspent', async () => {
      clock.set(Date.UTC(2026, 10, 23, 13, 0, 0));
      const p = await passkey(20);
      // Its leases are given back from the first sweep after a period has passed on the clock.
      const holder = await instance({ LIMIT_LEASE_MS: '10' });
      assert.equal(await consumeTimes(holder, p, 4), 4);
      clock.advance(10);
      assert.equal(await consumeTimes(holder, p, 1), 1);
      const other = await instance();
      let admitted = await consumeTimes(other, p, 20);
      assert.ok(admitted < 15, `${admitted}: the holder held nothing`);
      clock.advance(10);
      for (let i = 0; i < 500 && admitted < 15; i += 1) {
        await sleep(10);
        admitted += await consumeTimes(other, p, 1);
      }
      assert.equal(admitted, 15);
    });
  });
}
