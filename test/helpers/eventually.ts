import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Resolves with `attempt()`'s value once it stops throwing; fails with its last error after `ms`.
 * For outcomes that follow a fault or a recovery at a time the test does not control.
 */
export async function eventually<T>(attempt: () => Promise<T>, ms = 10_000, pauseMs = 100): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() > until) throw err;
      await sleep(pauseMs);
    }
  }
}

/** Checks `done` every `pauseMs` until it holds (true) or `boundMs` has passed (false). */
export async function waitFor(
  done: () => Promise<boolean>,
  boundMs: number,
  pauseMs = 250,
): Promise<boolean> {
  const until = Date.now() + boundMs;
  while (Date.now() < until) {
    if (await done()) return true;
    await sleep(pauseMs);
  }
  return false;
}
