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
