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
