import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from '../../../src/logger.js';
import { createOutageLog } from '../../../src/services/health/create-outage-log.js';
import { createRetryBackoff } from '../../../src/services/health/create-retry-backoff.js';
import { retryThroughOutage } from '../../../src/services/health/retry-through-outage.js';
import type { Store } from '../../../src/store/database.js';
import { LogCapture } from '../../helpers/test-runtime.js';

const lost = () => new Error('Connection terminated unexpectedly');

function setup() {
  const logs = new LogCapture();
  // Without a hold, the outage ends with the first success (the hold is create-outage-log's own test).
  const outages = createOutageLog(createLogger('info', logs), Date.now, { holdMs: 0 });
  // The probe that closes an outage pings the store; these tests close it by succeeding first.
  const store = { ping: async () => {} } as unknown as Store;
  return { logs, deps: { outages, store }, backoff: createRetryBackoff({ firstMs: 1, maxMs: 5 }) };
}

describe('retryThroughOutage', () => {
  it('runs again while the database is unreachable, and logs the outage once', async () => {
    const { logs, deps, backoff } = setup();
    let calls = 0;
    const value = await retryThroughOutage(
      deps,
      async () => {
        if (++calls <= 5) throw lost();
        return 'committed';
      },
      { backoff },
    );
    assert.equal(value, 'committed');
    assert.equal(calls, 6);
    assert.equal(logs.lines.length, 2, 'the outage started and ended');
    assert.equal(deps.outages.isDown('database'), false);
  });

  it('throws any other failure at once, and a lost connection once stopped', async () => {
    const { deps, backoff } = setup();
    let calls = 0;
    await assert.rejects(
      retryThroughOutage(
        deps,
        async () => {
          calls++;
          throw new Error('a bug');
        },
        { backoff },
      ),
      /a bug/,
    );
    assert.equal(calls, 1);
    const stop = new AbortController();
    await assert.rejects(
      retryThroughOutage(
        deps,
        async () => {
          stop.abort();
          throw lost();
        },
        { backoff, signal: stop.signal },
      ),
      /Connection terminated/,
    );
  });

  it('stops waiting for the database as soon as it is stopped, with the failure that made it wait', async () => {
    const { deps } = setup();
    // A pause far longer than the test takes: only the stop can end it in time.
    const backoff = { next: () => 10_000, reset: () => {} };
    const stop = new AbortController();
    const first = lost();
    let calls = 0;
    const started = Date.now();
    const thrown = await retryThroughOutage(
      deps,
      async () => {
        if (++calls > 1) return 'ran again';
        setTimeout(() => stop.abort(), 10);
        throw first;
      },
      { backoff, signal: stop.signal },
    ).catch((err: unknown) => err);
    assert.ok(Date.now() - started < 5_000, 'the pause was cut short');
    assert.equal(calls, 1, 'not run again once stopped');
    assert.equal(thrown, first);
  });

  it('lets a transaction under way when it is stopped finish, and answers with its outcome', async () => {
    const { deps, backoff } = setup();
    for (const outcome of ['failed', 'committed'] as const) {
      const stop = new AbortController();
      const failure = lost();
      let finish = (): void => {};
      let calls = 0;
      let settled = false;
      const running = retryThroughOutage(
        deps,
        () => {
          calls++;
          return new Promise<string>((resolve, reject) => {
            finish = () => (outcome === 'failed' ? reject(failure) : resolve('committed'));
          });
        },
        { backoff, signal: stop.signal },
      ).finally(() => {
        settled = true;
      });
      stop.abort();
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(settled, false, `${outcome}: not settled while the transaction runs`);
      finish();
      if (outcome === 'failed') await assert.rejects(running, (err) => err === failure);
      else assert.equal(await running, 'committed');
      assert.equal(calls, 1);
    }
  });

  it('runs a transaction rolled back by a deadlock again, a few times', async () => {
    const { deps, backoff } = setup();
    let calls = 0;
    const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });
    await assert.rejects(
      retryThroughOutage(
        deps,
        async () => {
          calls++;
          throw deadlock();
        },
        { backoff },
      ),
      /deadlock/,
    );
    assert.equal(calls, 5);
  });
});
