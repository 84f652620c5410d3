import type { HookHandlerDoneFunction } from 'fastify';
import { isPromise, type MaybePromise } from '../../services/maybe-promise.js';

/**
 * Ends a callback-style step (Fastify's `done`) with what a service gave: at once when memory had
 * it, so the step stays within its request's turn of the event loop (docs/architecture.md,
 * Conventions), or once its promise settles. A refusal, thrown by `use` or rejected by the
 * promise, becomes the request's error; `unavailable` sees a rejection first.
 */
export function finishStep<T>(
  value: MaybePromise<T>,
  use: (found: T) => void,
  done: HookHandlerDoneFunction,
  unavailable?: (err: unknown) => void,
): void {
  if (!isPromise(value)) {
    use(value);
    done();
    return;
  }
  value.then(
    (found) => {
      try {
        use(found);
      } catch (err) {
        done(err as Error);
        return;
      }
      done();
    },
    (err: unknown) => {
      unavailable?.(err);
      done(err as Error);
    },
  );
}
