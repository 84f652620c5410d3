/**
 * An in-process wake-up call: services notify it when new work is stored, workers wait on it
 * between polls, so a request created in this process starts at once instead of at the next poll.
 * A notify that arrives while nobody waits is kept, so it is never lost between a poll and a wait.
 */
export interface WorkSignal {
  notify(): void;
  /** Resolves on notify, after `ms`, or when `abort` fires, whichever is first. */
  wait(ms: number, abort?: AbortSignal): Promise<void>;
}

export function createWorkSignal(): WorkSignal {
  let pending = false;
  const waiters = new Set<() => void>();
  return {
    notify() {
      if (waiters.size === 0) {
        pending = true;
        return;
      }
      for (const wake of [...waiters]) wake();
    },
    wait(ms, abort) {
      if (pending || abort?.aborted) {
        pending = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          abort?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waiters.add(done);
        abort?.addEventListener('abort', done, { once: true });
      });
    },
  };
}
