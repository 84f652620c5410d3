import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../src/errors.js';
import {
  type AuthAttempt,
  type AuthFailureThrottle,
  createAuthFailureThrottle,
} from '../../src/services/auth/create-auth-failure-throttle.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../helpers/test-runtime.js';
import { COUNTER_STORES, testClock } from './limit-fixtures.js';

const LIMIT = 3;
const WINDOW_SECONDS = 120;

async function refusal(attempt: Promise<unknown>): Promise<AppError> {
  try {
    await attempt;
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return err;
  }
  assert.fail('expected the attempt to be refused');
}

/** Reserves as the token endpoint does: within the turn when the throttle can, otherwise waiting. */
async function reserveHeldFirst(throttle: AuthFailureThrottle, client: string | null, address: string) {
  return throttle.reserveHeld(client, address) ?? (await throttle.reserve(client, address));
}

for (const store of COUNTER_STORES)
  for (const entry of ['reserve', 'reserveHeld'] as const) {
    describe(`client authentication throttle on ${store.name === 'redis' ? 'Redis' : TEST_DIALECT}, through ${entry}`, () => {
      const clock = testClock();
      let runtime: TestRuntime;
      let throttle: AuthFailureThrottle;
      let n = 0;
      /** Client ids and addresses no other test (or test file sharing the Redis) uses. */
      const fresh = (kind: string) => {
        n += 1;
        return `${kind}-${process.pid}-${n}`;
      };

      before(async () => {
        runtime = await createTestRuntime(
          {
            ...store.env,
            AUTH_FAILURE_LIMIT: String(LIMIT),
            AUTH_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
          },
          { clock: clock.now },
        );
        throttle = runtime.http.authThrottle;
      });
      after(() => runtime.close());

      const reserve = (client: string | null, address: string): Promise<AuthAttempt> =>
        entry === 'reserve' ? throttle.reserve(client, address) : reserveHeldFirst(throttle, client, address);

      /** Lets an attempt through and gives it back, leaving the counts as they were. */
      const assertAllowed = async (client: string | null, address: string) =>
        (await reserve(client, address)).abandoned();
      const fail = async (client: string | null, address: string) =>
        (await reserve(client, address)).failed();
      const succeed = async (client: string, address: string) => (await reserve(client, address)).succeeded();

      it('refuses a client id from an address after the limit of its failures there, until the window ends', async () => {
        const client = fresh('client');
        const address = fresh('addr');
        for (let i = 0; i < LIMIT; i += 1) {
          await assertAllowed(client, address);
          await fail(client, address);
          clock.advance(10_000);
        }
        const err = await refusal(reserve(client, address));
        assert.equal(err.code, 'TOO_MANY_FAILED_ATTEMPTS');
        assert.equal(err.status, 429);
        // The window started at the first failure, 30 s ago.
        assert.equal(err.headers['retry-after'], String(WINDOW_SECONDS - 30));
        // The client id from other addresses, and other clients, are not affected.
        await assertAllowed(client, fresh('addr'));
        await assertAllowed(fresh('client'), fresh('addr'));

        clock.advance((WINDOW_SECONDS - 30) * 1000);
        await assertAllowed(client, address);
      });

      it('never refuses a client id for failures from other addresses', async () => {
        const client = fresh('client');
        for (let i = 0; i < 3 * LIMIT; i += 1) await fail(client, fresh('addr'));
        await assertAllowed(client, fresh('addr'));
        await succeed(client, fresh('addr'));
      });

      it('refuses an address after the limit of failures, whatever client id it names next', async () => {
        const address = fresh('addr');
        for (let i = 0; i < LIMIT; i += 1) await fail(fresh('client'), address);
        const err = await refusal(reserve(fresh('client'), address));
        assert.equal(err.headers['retry-after'], String(WINDOW_SECONDS));
        await refusal(reserve(null, address));
        await assertAllowed(fresh('client'), fresh('addr'));
      });

      it('counts failures without a client id against the address only', async () => {
        const address = fresh('addr');
        for (let i = 0; i < LIMIT - 1; i += 1) await fail(null, address);
        await assertAllowed(null, address);
        await fail(null, address);
        await refusal(reserve(null, address));
      });

      it("a success clears the client id's failures from its address only, in both counts", async () => {
        const client = fresh('client');
        const address = fresh('addr');
        const elsewhere = fresh('addr');
        for (let i = 0; i < LIMIT - 1; i += 1) await fail(client, address);
        for (let i = 0; i < LIMIT - 1; i += 1) await fail(client, elsewhere);
        await succeed(client, address);
        // The address may fail LIMIT - 1 times again, for this client id or another...
        for (let i = 0; i < LIMIT - 1; i += 1) await fail(fresh('client'), address);
        await assertAllowed(client, address);
        // ...while the other address still holds the client id's failures: one more blocks it.
        await fail(client, elsewhere);
        await refusal(reserve(client, elsewhere));
      });

      it("a success for one client id leaves an address's failures for another", async () => {
        const address = fresh('addr');
        for (let i = 0; i < LIMIT - 1; i += 1) await fail(fresh('client'), address);
        await succeed(fresh('client'), address);
        await succeed(fresh('client'), address);
        await fail(fresh('client'), address);
        await refusal(reserve(fresh('client'), address));
      });

      it('counts every concurrent failure', async () => {
        const client = fresh('client');
        const address = fresh('addr');
        await Promise.all(Array.from({ length: LIMIT }, () => fail(client, address)));
        await refusal(reserve(client, address));
      });

      it('lets at most the limit of wrong guesses through however many arrive at once', async () => {
        /** 200 guesses at once, each failing as soon as it is let through; how many were let through. */
        const burst = async (client: () => string | null, address: string) => {
          const outcomes = await Promise.allSettled(
            Array.from({ length: 200 }, async () => (await reserve(client(), address)).failed()),
          );
          for (const o of outcomes) {
            if (o.status === 'rejected') {
              assert.equal((o.reason as AppError).code, 'TOO_MANY_FAILED_ATTEMPTS');
              assert.equal((o.reason as AppError).headers['retry-after'], String(WINDOW_SECONDS));
            }
          }
          return outcomes.filter((o) => o.status === 'fulfilled').length;
        };
        const client = fresh('client');
        assert.equal(await burst(() => client, fresh('addr')), LIMIT);
        // The same for one address naming many client ids.
        assert.equal(await burst(() => fresh('client'), fresh('addr')), LIMIT);
      });

      for (const where of ['this instance', 'another instance'] as const) {
        /** The throttle of this instance, or of another sharing its counters. */
        const holder = async () =>
          where === 'this instance' ? throttle : await createAuthFailureThrottle(runtime.deps);

        it(`lets an attempt wait while attempts in progress at ${where} fill the limit, and go on when one settles`, async () => {
          const client = fresh('client');
          const address = fresh('addr');
          const other = await holder();
          const inProgress = await Promise.all(
            Array.from({ length: LIMIT }, () => other.reserve(client, address)),
          );
          const waiting = reserve(client, address);
          await sleep(50);
          await inProgress[0]?.abandoned();
          const next = await waiting;
          // The others fail: the limit is now reached by failures, and the next attempt refused at once.
          for (const attempt of [next, ...inProgress.slice(1)]) await attempt.failed();
          const err = await refusal(reserve(client, address));
          assert.equal(err.headers['retry-after'], String(WINDOW_SECONDS));
        });

        it(`refuses an attempt that waited too long for attempts in progress at ${where}, asking for a retry soon`, async () => {
          const address = fresh('addr');
          const other = await holder();
          const inProgress = await Promise.all(
            Array.from({ length: LIMIT }, () => other.reserve(fresh('client'), address)),
          );
          const err = await refusal(reserve(fresh('client'), address));
          assert.equal(err.code, 'TOO_MANY_FAILED_ATTEMPTS');
          assert.equal(err.headers['retry-after'], '1');
          for (const attempt of inProgress) await attempt.abandoned();
          await assertAllowed(fresh('client'), address);
        });
      }

      it("a success clears the client id's attempts in progress from its address too", async () => {
        const client = fresh('client');
        const address = fresh('addr');
        const inProgress = await Promise.all(Array.from({ length: LIMIT }, () => reserve(client, address)));
        await inProgress[0]?.succeeded();
        for (const attempt of inProgress.slice(1)) await attempt.failed();
        for (let i = 0; i < LIMIT - 1; i += 1) await fail(client, address);
        await assertAllowed(client, address);
        // Settling twice changes nothing.
        await inProgress[0]?.abandoned();
        await fail(client, address);
        await refusal(reserve(client, address));
      });

      // Only the in-process counters (SQLite's) answer within the turn; shared ones are waited for.
      const immediate = store.name === 'database' && TEST_DIALECT === 'sqlite';
      if (entry === 'reserveHeld') {
        it(
          immediate ? 'answers within the turn, and settles at once' : 'defers to reserve, counting nothing',
          async () => {
            const client = fresh('client');
            const address = fresh('addr');
            for (let i = 0; i < LIMIT; i += 1) {
              const attempt = throttle.reserveHeld(client, address);
              assert.equal(attempt === undefined, !immediate);
              assert.equal(attempt?.failed(), undefined, 'nothing to wait for');
            }
            if (immediate) {
              const err = (() => {
                try {
                  throttle.reserveHeld(client, address);
                } catch (e) {
                  return e;
                }
              })();
              assert.ok(err instanceof AppError && err.code === 'TOO_MANY_FAILED_ATTEMPTS', String(err));
              assert.equal(err.headers['retry-after'], String(WINDOW_SECONDS));
            } else {
              await assertAllowed(client, address);
            }
          },
        );

        it('defers while attempts in progress on this instance fill the address, counting nothing', async () => {
          const address = fresh('addr');
          const inProgress = await Promise.all(
            Array.from({ length: LIMIT }, () => throttle.reserve(fresh('client'), address)),
          );
          assert.equal(throttle.reserveHeld(fresh('client'), address), undefined);
          await inProgress[0]?.abandoned();
          const next = throttle.reserveHeld(fresh('client'), address);
          assert.equal(next === undefined, !immediate);
          await next?.abandoned();
          for (const attempt of inProgress.slice(1)) await attempt.abandoned();
          // Nothing was counted for the deferred attempt: the address still allows its LIMIT.
          for (let i = 0; i < LIMIT - 1; i += 1) await fail(fresh('client'), address);
          await assertAllowed(fresh('client'), address);
        });
      }
    });
  }
