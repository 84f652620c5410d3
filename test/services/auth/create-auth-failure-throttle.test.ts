import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../../src/errors.js';
import { MAX_KNOWN_BLOCKED } from '../../../src/services/auth/blocked-scopes.js';
import {
  type AuthAttempt,
  type AuthFailureThrottle,
  type AuthListener,
  createAuthFailureThrottle,
} from '../../../src/services/auth/create-auth-failure-throttle.js';
import type { MaybePromise } from '../../../src/services/maybe-promise.js';
import { COUNTER_STORES, testClock } from '../../helpers/limit-fixtures.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../../helpers/test-runtime.js';

const LIMIT = 3;
const ADDRESS_LIMIT = 3 * LIMIT;
const WINDOW_SECONDS = 120;

/** The refusal of `run`, thrown at once or rejected later alike, as the token endpoint sees it. */
async function refusal(run: () => MaybePromise<void>): Promise<AppError> {
  try {
    await run();
  } catch (err) {
    assert.ok(err instanceof AppError, String(err));
    return err;
  }
  assert.fail('expected the attempt to be refused');
}

for (const store of COUNTER_STORES) {
  describe(`client authentication throttle on ${store.name === 'redis' ? 'Redis' : TEST_DIALECT}`, () => {
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
          // One credential's worth: the address fails out with the credential (the looser address
          // count is tested below).
          AUTH_FAILURE_ADDRESS_LIMIT: String(LIMIT),
          AUTH_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
        },
        { clock: clock.now },
      );
      throttle = runtime.http.authThrottle;
    });
    after(() => runtime.close());

    /** A verdict settled, as the token endpoint awaits it (a refusal thrown at once rejects too). */
    const settled = async (client: string, address: string, verdict: keyof AuthAttempt, through = throttle) =>
      through.attempt('token', client, address)[verdict]();
    const fail = (client: string, address: string) => settled(client, address, 'failed');
    const succeed = (client: string, address: string) => settled(client, address, 'succeeded');
    /** A right secret would be answered: checked with a verdict that leaves the counts as they were. */
    const assertAllowed = (client: string, address: string) => settled(client, address, 'unauthorized');
    const refused = (client: string, address: string, verdict: keyof AuthAttempt = 'unauthorized') =>
      refusal(() => throttle.attempt('token', client, address)[verdict]());

    it('refuses a client id from an address after the limit of its failures there, until the window ends', async () => {
      const client = fresh('client');
      const address = fresh('addr');
      for (let i = 0; i < LIMIT; i += 1) {
        await assertAllowed(client, address);
        await fail(client, address);
        clock.advance(10_000);
      }
      const err = await refused(client, address);
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

    it('refuses every verdict alike once the failures are used up, and counts or clears nothing then', async () => {
      const client = fresh('client');
      const address = fresh('addr');
      for (let i = 0; i < LIMIT; i += 1) await fail(client, address);
      for (const verdict of ['failed', 'succeeded', 'unauthorized'] as const) {
        const err = await refused(client, address, verdict);
        assert.equal(err.code, 'TOO_MANY_FAILED_ATTEMPTS');
        assert.equal(err.headers['retry-after'], String(WINDOW_SECONDS));
      }
      // The refused success cleared nothing: another instance, which has seen no refusal, is refused too.
      const other = await createAuthFailureThrottle(runtime.deps);
      const err = await refusal(() => other.attempt('token', client, address).succeeded());
      assert.equal(err.headers['retry-after'], String(WINDOW_SECONDS));
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
      const err = await refused(fresh('client'), address);
      assert.equal(err.headers['retry-after'], String(WINDOW_SECONDS));
      await refused(fresh('client'), address, 'failed');
      await assertAllowed(fresh('client'), fresh('addr'));
    });

    it('counts the admin listener apart: failures at either never refuse the other', async () => {
      const address = fresh('addr');
      const failAt = (listener: 'token' | 'admin', credential: string) =>
        throttle.attempt(listener, credential, address).failed();
      for (let i = 0; i < LIMIT; i += 1) await failAt('admin', fresh('rpa_adm_guess'));
      await refusal(() => throttle.attempt('admin', fresh('rpa_adm_guess'), address).unauthorized());
      await assertAllowed(fresh('client'), address);
      const other = fresh('addr');
      for (let i = 0; i < LIMIT; i += 1) await fail(fresh('client'), other);
      await refused(fresh('client'), other);
      await throttle.attempt('admin', fresh('rpa_adm_token'), other).succeeded();
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
      await refused(client, elsewhere);
    });

    it("a success for one client id leaves an address's failures for another", async () => {
      const address = fresh('addr');
      for (let i = 0; i < LIMIT - 1; i += 1) await fail(fresh('client'), address);
      await succeed(fresh('client'), address);
      await succeed(fresh('client'), address);
      await fail(fresh('client'), address);
      await refused(fresh('client'), address);
    });

    it('a right secret leaves no count behind, however many arrive at once', async () => {
      const client = fresh('client');
      const address = fresh('addr');
      await Promise.all(Array.from({ length: 100 }, () => succeed(client, address)));
      await Promise.all(Array.from({ length: 100 }, () => assertAllowed(fresh('client'), address)));
      for (let i = 0; i < LIMIT - 1; i += 1) await fail(client, address);
      await assertAllowed(client, address);
    });

    it('counts every concurrent failure', async () => {
      const client = fresh('client');
      const address = fresh('addr');
      await Promise.all(Array.from({ length: LIMIT }, () => fail(client, address)));
      await refused(client, address);
    });

    it('lets at most the limit of wrong guesses through however many arrive at once, across instances', async () => {
      const instances = [throttle, await createAuthFailureThrottle(runtime.deps)];
      /** 200 wrong guesses at once, spread over two instances; how many were answered as such. */
      const burst = async (client: () => string, address: string) => {
        const outcomes = await Promise.allSettled(
          Array.from({ length: 200 }, (_, i) => settled(client(), address, 'failed', instances[i % 2])),
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

    it('refuses a scope this instance saw fail out before anything is looked up, until its window ends', async () => {
      const client = fresh('client');
      const address = fresh('addr');
      for (let i = 0; i < LIMIT; i += 1) await fail(client, address);
      await refused(client, address, 'failed');
      clock.advance(20_000);
      // Known here: refused by attempt itself, before any verdict.
      assert.throws(
        () => throttle.attempt('token', client, address),
        (err: unknown) =>
          err instanceof AppError &&
          err.code === 'TOO_MANY_FAILED_ATTEMPTS' &&
          err.headers['retry-after'] === String(WINDOW_SECONDS - 20),
      );
      // Another instance has not seen it: its attempt starts, and the counters refuse the verdict.
      const other = await createAuthFailureThrottle(runtime.deps);
      const attempt = other.attempt('token', client, address);
      await refusal(() => attempt.succeeded());
      clock.advance((WINDOW_SECONDS - 20) * 1000);
      await assertAllowed(client, address);
    });

    // Tens of thousands of failures: where they cost no round trip.
    if (store.name === 'database' && TEST_DIALECT === 'sqlite') {
      it('remembers a bounded number of blocked scopes; beyond it the counters still refuse', async () => {
        const other = await createAuthFailureThrottle(runtime.deps);
        const blockedOn = (through: AuthFailureThrottle, address: string) => {
          // Each failure names another client id, so only the address fails out: one scope each.
          for (let i = 0; i < LIMIT; i += 1) through.attempt('token', fresh('client'), address).failed();
          assert.throws(
            () => through.attempt('token', fresh('client'), address).failed(),
            (err: unknown) => err instanceof AppError && err.code === 'TOO_MANY_FAILED_ATTEMPTS',
          );
        };
        const addresses = Array.from({ length: MAX_KNOWN_BLOCKED + 1 }, () => fresh('addr'));
        for (const address of addresses) blockedOn(other, address);
        const last = addresses[MAX_KNOWN_BLOCKED] as string;
        // Not remembered: the attempt starts, and its verdict is refused by the counters.
        const attempt = other.attempt('token', fresh('client'), last);
        assert.throws(
          () => attempt.succeeded(),
          (err: unknown) => err instanceof AppError && err.status === 429,
        );
        // The first ones are remembered: refused before any verdict.
        assert.throws(() => other.attempt('token', fresh('client'), addresses[0] as string), AppError);
      });
    }

    it('settles an attempt once', async () => {
      const attempt = throttle.attempt('token', fresh('client'), fresh('addr'));
      await attempt.failed();
      assert.throws(() => attempt.succeeded(), /settled once/);
    });

    // Only the in-process counters (SQLite's) answer within the turn; shared ones are waited for.
    const immediate = store.name === 'database' && TEST_DIALECT === 'sqlite';
    it(
      immediate ? 'settles within the turn, refusing at once' : 'settles through the shared counters',
      async () => {
        const client = fresh('client');
        const address = fresh('addr');
        for (let i = 0; i < LIMIT; i += 1) {
          const settling = throttle.attempt('token', client, address).failed();
          assert.equal(settling === undefined, immediate);
          await settling;
        }
        const verdict = throttle.attempt('token', fresh('client'), address).succeeded;
        if (immediate)
          assert.throws(verdict, (err: unknown) => err instanceof AppError && err.status === 429);
        else
          await assert.rejects(
            async () => verdict(),
            (err: unknown) => err instanceof AppError && err.status === 429,
          );
      },
    );
  });

  describe(`callers sharing an address on ${store.name === 'redis' ? 'Redis' : TEST_DIALECT} (AUTH_FAILURE_ADDRESS_LIMIT=${ADDRESS_LIMIT})`, () => {
    const clock = testClock();
    let runtime: TestRuntime;
    let throttle: AuthFailureThrottle;
    let n = 0;
    const fresh = (kind: string) => {
      n += 1;
      return `${kind}-shared-${process.pid}-${n}`;
    };

    before(async () => {
      runtime = await createTestRuntime(
        {
          ...store.env,
          AUTH_FAILURE_LIMIT: String(LIMIT),
          AUTH_FAILURE_ADDRESS_LIMIT: String(ADDRESS_LIMIT),
          AUTH_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
        },
        { clock: clock.now },
      );
      throttle = runtime.http.authThrottle;
    });
    after(() => runtime.close());

    const fail = async (listener: AuthListener, credential: string, address: string) =>
      throttle.attempt(listener, credential, address).failed();
    const allowed = async (listener: AuthListener, credential: string, address: string) =>
      throttle.attempt(listener, credential, address).unauthorized();
    const refused = (listener: AuthListener, credential: string, address: string) =>
      refusal(() => throttle.attempt(listener, credential, address).unauthorized());

    for (const listener of ['token', 'admin'] as const) {
      it(`${listener}: one credential failing out leaves the others from its address, and adds nothing once refused`, async () => {
        const address = fresh('nat');
        const stale = fresh('credential');
        for (let i = 0; i < LIMIT; i += 1) await fail(listener, stale, address);
        // Refused from now on, and the refusals count for nothing.
        for (let i = 0; i < 3 * ADDRESS_LIMIT; i += 1) await refused(listener, stale, address);
        await allowed(listener, fresh('credential'), address);
        // The address holds the stale credential's LIMIT failures: room for the rest.
        for (let i = 0; i < ADDRESS_LIMIT - LIMIT; i += 1) await fail(listener, fresh('credential'), address);
        const err = await refused(listener, fresh('credential'), address);
        assert.equal(err.code, 'TOO_MANY_FAILED_ATTEMPTS');
        assert.equal(err.headers['retry-after'], String(WINDOW_SECONDS));
        await allowed(listener, fresh('credential'), fresh('nat'));
      });
    }
  });
}
