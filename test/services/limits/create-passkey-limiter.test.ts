import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashCredential } from '../../../src/domain/credentials.js';
import type { Passkey } from '../../../src/domain/passkey.js';
import { AppError } from '../../../src/errors.js';
import type { LimitDecision } from '../../../src/services/limits/limit-decision.js';
import { isPromise } from '../../../src/services/maybe-promise.js';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import { seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { updatePasskey } from '../../../src/services/tenancy/update-passkey.js';
import { COUNTER_STORES, testClock } from '../../helpers/limit-fixtures.js';
import { pending } from '../../helpers/pending.js';
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
      let admitted = 0;
      let fromMemory = 0;
      for (let i = 0; i < 40; i += 1) {
        const decided = limiter.consume(p);
        // Nothing leased yet: the store must be asked.
        if (i === 0) assert.ok(isPromise(decided));
        if (!isPromise(decided)) {
          assert.equal(decided.allowed, true);
          assert.match(decided.headers.ratelimit ?? '', /^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
          fromMemory += 1;
          admitted += 1;
        } else if ((await decided).allowed) {
          admitted += 1;
        }
      }
      assert.equal(admitted, 20);
      assert.ok(fromMemory > 0, 'no call was answered from leased allowance');
      const spent = limiter.consume(p);
      assert.ok(isPromise(spent));
      assert.equal((await spent).allowed, false);

      // Other numbers: allowance leased under the old ones does not answer for them.
      let q = await passkey(100);
      await leaseAhead(runtime, q, 10);
      const fromLease = limiter.consume(q);
      assert.ok(!isPromise(fromLease) && fromLease.allowed);
      q = await updatePasskey(runtime.deps, { passkeyId: q.id, ratePerMinute: 50 });
      const renewed = limiter.consume(q);
      assert.ok(isPromise(renewed));
      const next = await renewed;
      assert.equal(next.allowed, true);
      assert.match(next.headers.ratelimit ?? '', /^"minute";r=37;/);
      // A lease period later, nothing held counts any more.
      clock.advance(LEASE_MS);
      const later = limiter.consume(q);
      assert.ok(isPromise(later));
      await later;
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
        await assert.rejects(pending(cut.http.limiter.consume(p)), (err: unknown) => {
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

const MINUTE = 60_000;

for (const store of COUNTER_STORES) {
  describe(`passkey limiter on ${store.name === 'redis' ? 'Redis' : TEST_DIALECT}`, () => {
    const clock = testClock();
    let runtime: TestRuntime;
    let applicationId: string;

    before(async () => {
      runtime = await createTestRuntime(store.env, { clock: clock.now });
      applicationId = (await seedDemo(runtime.deps, { environment: 'production' })).applicationId;
    });
    after(() => runtime.close());

    /** A new passkey, so every test starts with untouched counters. */
    async function passkey(ratePerMinute: number, quotaPerDay: number): Promise<Passkey> {
      const created = await createPasskey(runtime.deps, {
        applicationId,
        api: 'response',
        ratePerMinute,
        quotaPerDay,
      });
      return created.passkey;
    }
    const consume = (p: Passkey) => runtime.http.limiter.consume(p);
    async function consumeTimes(p: Passkey, n: number): Promise<LimitDecision[]> {
      const out: LimitDecision[] = [];
      for (let i = 0; i < n; i += 1) out.push(await consume(p));
      return out;
    }

    it('advertises both policies and what remains of each, as draft-ietf-httpapi-ratelimit-headers fields', async () => {
      clock.set(Date.UTC(2026, 10, 23, 10, 15, 18));
      const p = await passkey(600, 100_000);
      const first = await consume(p);
      assert.equal(first.allowed, true);
      assert.deepEqual(first.headers, {
        'ratelimit-policy': '"minute";q=600;w=60, "day";q=100000;w=86400',
        // 42 s to the end of the minute, 49482 s to 00:00 UTC.
        ratelimit: '"minute";r=599;t=42, "day";r=99999;t=49482',
      });
      const second = await consume(p);
      assert.equal(second.headers.ratelimit, '"minute";r=598;t=42, "day";r=99998;t=49482');
    });

    it('never shows the passkey, its id or its hash in a header', async () => {
      const created = await createPasskey(runtime.deps, { applicationId, api: 'privacy' });
      const decision = await consume(created.passkey);
      const text = JSON.stringify(decision.headers);
      for (const secret of [
        created.value,
        created.passkey.id,
        hashCredential(created.value),
        created.passkey.keyHint,
      ]) {
        assert.equal(text.includes(secret), false);
      }
    });

    it('admits exactly the rate limit per minute, refuses with Retry-After, and opens again next minute', async () => {
      clock.set(Date.UTC(2026, 10, 23, 11, 0, 50));
      const p = await passkey(3, 100);
      const decisions = await consumeTimes(p, 5);
      assert.deepEqual(
        decisions.map((d) => d.allowed),
        [true, true, true, false, false],
      );
      const refused = decisions[4]!;
      assert.equal(refused.exceeded, 'rate');
      assert.equal(refused.retryAfterSeconds, 10);
      assert.equal(refused.headers['retry-after'], '10');
      // Refused calls took nothing from the day's quota: 3 of 100 used.
      assert.equal(refused.headers.ratelimit, '"minute";r=0;t=10, "day";r=97;t=46750');

      clock.advance(10_000);
      const next = await consume(p);
      assert.equal(next.allowed, true);
      assert.equal(next.headers.ratelimit, '"minute";r=2;t=60, "day";r=96;t=46740');
    });

    it('admits exactly the quota per day, refuses until 00:00 UTC, and a refusal takes nothing from the minute', async () => {
      clock.set(Date.UTC(2026, 10, 23, 23, 58, 30));
      const p = await passkey(10, 4);
      const decisions = await consumeTimes(p, 6);
      assert.deepEqual(
        decisions.map((d) => d.allowed),
        [true, true, true, true, false, false],
      );
      const refused = decisions[5]!;
      assert.equal(refused.exceeded, 'quota');
      assert.equal(refused.retryAfterSeconds, 90);
      assert.equal(refused.headers.ratelimit, '"minute";r=6;t=30, "day";r=0;t=90');

      // A new minute does not help; a new UTC day does.
      clock.advance(MINUTE);
      assert.equal((await consume(p)).exceeded, 'quota');
      clock.set(Date.UTC(2026, 10, 24, 0, 0, 1));
      const tomorrow = await consume(p);
      assert.equal(tomorrow.allowed, true);
      assert.equal(tomorrow.headers.ratelimit, '"minute";r=9;t=59, "day";r=3;t=86399');
    });

    it('reports the longer wait, and the quota, when both policies are exhausted', async () => {
      clock.set(Date.UTC(2026, 10, 23, 12, 0, 0));
      const p = await passkey(2, 2);
      await consumeTimes(p, 2);
      const refused = await consume(p);
      assert.equal(refused.allowed, false);
      assert.equal(refused.exceeded, 'quota');
      assert.equal(refused.retryAfterSeconds, 12 * 3600);
    });

    it('applies a changed limit from the next call, counting what the window already holds', async () => {
      clock.set(Date.UTC(2026, 10, 23, 13, 0, 0));
      let p = await passkey(10, 1000);
      await consumeTimes(p, 4);
      p = await updatePasskey(runtime.deps, { passkeyId: p.id, ratePerMinute: 4 });
      const lowered = await consume(p);
      assert.equal(lowered.allowed, false);
      assert.equal(lowered.headers['ratelimit-policy'], '"minute";q=4;w=60, "day";q=1000;w=86400');
      p = await updatePasskey(runtime.deps, { passkeyId: p.id, ratePerMinute: 6 });
      const raised = await consumeTimes(p, 3);
      assert.deepEqual(
        raised.map((d) => d.allowed),
        [true, true, false],
      );
    });

    it('keeps separate counters per passkey', async () => {
      clock.set(Date.UTC(2026, 10, 23, 14, 0, 0));
      const a = await passkey(2, 100);
      const b = await passkey(2, 100);
      await consumeTimes(a, 3);
      const fromB = await consume(b);
      assert.equal(fromB.allowed, true);
      assert.equal(fromB.headers.ratelimit, '"minute";r=1;t=60, "day";r=99;t=36000');
    });

    it('admits exactly the limit out of many concurrent calls', async () => {
      clock.set(Date.UTC(2026, 10, 23, 15, 0, 0));
      const p = await passkey(15, 1000);
      const decisions = await Promise.all(Array.from({ length: 40 }, () => consume(p)));
      assert.equal(decisions.filter((d) => d.allowed).length, 15);
      assert.ok(decisions.filter((d) => !d.allowed).every((d) => d.exceeded === 'rate'));
      // And none of the 25 refusals reached the day's quota.
      clock.advance(MINUTE);
      assert.match((await consume(p)).headers.ratelimit ?? '', /"day";r=984;/);
    });

    it('keeps concurrent calls of several passkeys apart: a refusal of one undoes nothing of another', async () => {
      clock.set(Date.UTC(2026, 10, 23, 16, 0, 0));
      const a = await passkey(2, 1000);
      const b = await passkey(5, 1000);
      // Interleaved in one moment, so on SQLite they are committed together.
      const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => consume(i % 2 ? a : b)));
      const allowed = (p: Passkey) => decisions.filter((d, i) => (i % 2 ? a : b) === p && d.allowed).length;
      assert.equal(allowed(a), 2);
      assert.equal(allowed(b), 5);
      clock.advance(MINUTE);
      assert.match((await consume(a)).headers.ratelimit ?? '', /"day";r=997;/);
      assert.match((await consume(b)).headers.ratelimit ?? '', /"day";r=994;/);
    });
  });
}
