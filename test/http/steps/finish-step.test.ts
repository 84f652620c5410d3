import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { finishStep } from '../../../src/http/steps/finish-step.js';

/** A `done` that records what each call passed. */
function recorder() {
  const calls: Array<Error | undefined> = [];
  return { calls, done: (err?: Error) => void calls.push(err) };
}

describe('finishStep', () => {
  it('ends the step before returning when the value is at hand', () => {
    const { calls, done } = recorder();
    let used: number | undefined;
    finishStep(7, (v) => (used = v), done);
    assert.equal(used, 7);
    assert.deepEqual(calls, [undefined]);
  });

  it('lets a refusal of a value at hand throw, as a synchronous hook does', () => {
    const { calls, done } = recorder();
    const refusal = new Error('refused');
    assert.throws(
      () =>
        finishStep(
          1,
          () => {
            throw refusal;
          },
          done,
        ),
      refusal,
    );
    assert.deepEqual(calls, []);
  });

  it('ends the step once a promise fulfils, and passes on a refusal thrown then', async () => {
    const ok = recorder();
    let used: string | undefined;
    finishStep(Promise.resolve('later'), (v) => (used = v), ok.done);
    assert.deepEqual(ok.calls, []);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(used, 'later');
    assert.deepEqual(ok.calls, [undefined]);

    const refused = recorder();
    const refusal = new Error('over the limit');
    finishStep(
      Promise.resolve(1),
      () => {
        throw refusal;
      },
      refused.done,
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(refused.calls, [refusal]);
  });

  it('tells `unavailable` of a rejection before the step ends with it', async () => {
    const { calls, done } = recorder();
    const outage = new Error('store unavailable');
    const seen: unknown[] = [];
    finishStep(
      Promise.reject(outage),
      () => assert.fail('nothing to use'),
      (err) => {
        seen.push(calls.length);
        done(err);
      },
      (err) => seen.push(err),
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen, [outage, 0]);
    assert.deepEqual(calls, [outage]);
  });
});
