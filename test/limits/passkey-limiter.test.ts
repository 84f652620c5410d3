import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashCredential } from '../../src/domain/credentials.js';
import type { Passkey } from '../../src/domain/passkey.js';
import type { LimitDecision } from '../../src/services/limits/create-passkey-limiter.js';
import { createPasskey } from '../../src/services/tenancy/create-passkey.js';
import { seedDemo } from '../../src/services/tenancy/seed-demo.js';
import { updatePasskey } from '../../src/services/tenancy/update-passkey.js';
import { COUNTER_STORES, testClock } from '../helpers/limit-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../helpers/test-runtime.js';

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
