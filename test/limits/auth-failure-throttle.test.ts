import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../src/errors.js';
import type { AuthFailureThrottle } from '../../src/services/auth/create-auth-failure-throttle.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../helpers/test-runtime.js';
import { COUNTER_STORES, testClock } from './limit-fixtures.js';

const LIMIT = 3;
const WINDOW_SECONDS = 120;

async function refusal(attempt: Promise<void>): Promise<AppError> {
  try {
    await attempt;
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
          AUTH_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
        },
        { clock: clock.now },
      );
      throttle = runtime.http.authThrottle;
    });
    after(() => runtime.close());

    it('refuses a client id after the limit of failures, from any address, until the window ends', async () => {
      const client = fresh('client');
      for (let i = 0; i < LIMIT; i += 1) {
        await throttle.assertAllowed(client, fresh('addr'));
        await throttle.recordFailure(client, fresh('addr'));
        clock.advance(10_000);
      }
      const err = await refusal(throttle.assertAllowed(client, fresh('addr')));
      assert.equal(err.code, 'TOO_MANY_FAILED_ATTEMPTS');
      assert.equal(err.status, 429);
      // The window started at the first failure, 30 s ago.
      assert.equal(err.headers['retry-after'], String(WINDOW_SECONDS - 30));
      // Other clients are not affected.
      await throttle.assertAllowed(fresh('client'), fresh('addr'));

      clock.advance((WINDOW_SECONDS - 30) * 1000);
      await throttle.assertAllowed(client, fresh('addr'));
    });

    it('refuses an address after the limit of failures, whatever client id it names next', async () => {
      const address = fresh('addr');
      for (let i = 0; i < LIMIT; i += 1) await throttle.recordFailure(fresh('client'), address);
      const err = await refusal(throttle.assertAllowed(fresh('client'), address));
      assert.equal(err.headers['retry-after'], String(WINDOW_SECONDS));
      await refusal(throttle.assertAllowed(null, address));
      await throttle.assertAllowed(fresh('client'), fresh('addr'));
    });

    it('counts failures without a client id against the address only', async () => {
      const address = fresh('addr');
      for (let i = 0; i < LIMIT - 1; i += 1) await throttle.recordFailure(null, address);
      await throttle.assertAllowed(null, address);
      await throttle.recordFailure(null, address);
      await refusal(throttle.assertAllowed(null, address));
    });

    it("clears a client id's failures on success, but not the address's", async () => {
      const client = fresh('client');
      const address = fresh('addr');
      for (let i = 0; i < LIMIT - 1; i += 1) await throttle.recordFailure(client, address);
      await throttle.recordSuccess(client);
      // The client id may fail LIMIT times again, from other addresses...
      for (let i = 0; i < LIMIT - 1; i += 1) await throttle.recordFailure(client, fresh('addr'));
      await throttle.assertAllowed(client, fresh('addr'));
      // ...while the address still holds its two failures: one more blocks it.
      await throttle.recordFailure(fresh('client'), address);
      await refusal(throttle.assertAllowed(fresh('client'), address));
    });

    it('counts every concurrent failure', async () => {
      const client = fresh('client');
      await Promise.all(Array.from({ length: LIMIT }, () => throttle.recordFailure(client, fresh('addr'))));
      await refusal(throttle.assertAllowed(client, fresh('addr')));
    });
  });
}
