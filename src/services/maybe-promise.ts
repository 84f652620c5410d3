/**
 * A value a hot-path step returns at once when memory holds it, or the promise of it when the
 * store must be asked: a step finishes within its request's turn of the event loop, allocating no
 * promise, whenever it can (docs/architecture.md, Conventions).
 */
export type MaybePromise<T> = T | Promise<T>;

/** Whether the answer is still to come. Every promise here is a native one. */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/**
 * `next` applied to the value: at once when it is at hand, so the caller stays within its turn,
 * or once it arrives. A refusal `next` throws at once stays a synchronous throw.
 */
export function whenReady<T, U>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
): MaybePromise<U> {
  return isPromise(value) ? value.then(next) : next(value);
}
