import assert from 'node:assert/strict';
import { isPromise, type MaybePromise } from '../../src/services/maybe-promise.js';

/**
 * The promise a call answered with, failing when it answered at once: a refusal or an outage that
 * needs the store comes as a rejected promise, never as a value or a synchronous throw.
 */
export function pending<T>(answer: MaybePromise<T>): Promise<T> {
  assert.ok(isPromise(answer), 'the answer is a promise');
  return answer;
}
