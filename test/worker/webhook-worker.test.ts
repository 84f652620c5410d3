import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ServiceDeps } from '../../src/services/deps.js';
import { startWebhookWorker } from '../../src/worker/webhook-worker.js';
import { createTestRuntime, TEST_DIALECT, type TestRuntime } from '../helpers/test-runtime.js';

describe(`webhook worker through a database outage on ${TEST_DIALECT}`, () => {
  let rt: TestRuntime;

  before(async () => {
    rt = await createTestRuntime({ WORKER_POLL_INTERVAL_MS: '20' });
  });
  after(() => rt.close());

  it('logs the outage once, backs off, and claims again once the database answers', {
    timeout: 30_000,
  }, async () => {
    let claims = 0;
    const refused = () =>
      Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const failing: ServiceDeps['store']['groupCommit'] = (work, keep) => {
      claims++;
      if (claims <= 4) return refused();
      return rt.deps.store.groupCommit(work, keep);
    };
    // Down for the probe that ends an outage too, until the database serves a claim again.
    const ping = () => (claims <= 4 ? refused() : rt.deps.store.ping());
    const deps: ServiceDeps = { ...rt.deps, store: { ...rt.deps.store, groupCommit: failing, ping } };
    const logsFrom = rt.logs.lines.length;
    const worker = startWebhookWorker(deps, { owner: 'webhook-faults' });
    const until = Date.now() + 20_000;
    while (claims <= 6 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await worker.stop();
    assert.ok(claims > 6, 'the loop went on claiming after the failures');
    const logged = rt.logs.lines.slice(logsFrom).map((l) => (JSON.parse(l) as { msg: string }).msg);
    assert.equal(logged.filter((m) => m === 'database unavailable: outage started').length, 1);
    assert.equal(logged.filter((m) => m === 'database available again: outage ended').length, 1);
    assert.ok(!logged.includes('webhook worker iteration failed'), 'no error line per failed pass');
    assert.equal(rt.deps.outages.isDown('database'), false);
  });
});
