import { recordPasskeyUses } from '../../store/repositories/passkeys.js';
import type { ServiceDeps } from '../deps.js';

export interface PasskeyUsage {
  /** Notes a call made with the passkey: a map entry, no I/O. */
  used(passkeyId: string): void;
  /** Writes the latest use of every passkey noted since the last flush. */
  flush(): Promise<void>;
  /** Stops the periodic flush and writes what is left. */
  close(): Promise<void>;
}

/** How often an instance writes last uses: a passkey's `lastUsedAt` is at most this much behind. */
const PASSKEY_USAGE_FLUSH_MS = 60_000;

/**
 * When each passkey was last used, for operators (`rpa passkeys list`), written off the request
 * path: calls only note the time in memory, and the notes are written once a minute, one update
 * per passkey used. A write that fails (the database is away) keeps its notes for the next one,
 * and a note is only ever moved forward, so instances may write in any order.
 */
export function createPasskeyUsage(
  deps: Pick<ServiceDeps, 'store' | 'clock' | 'logger'>,
  options: { flushMs?: number } = {},
): PasskeyUsage {
  let pending = new Map<string, number>();
  let writing: Promise<void> = Promise.resolve();

  const write = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      await recordPasskeyUses(
        deps.store.db,
        [...batch].map(([passkeyId, at]) => ({ passkeyId, at })),
      );
    } catch (err) {
      // Kept for the next write, unless a call noted since is later.
      for (const [id, at] of batch) if ((pending.get(id) ?? 0) < at) pending.set(id, at);
      deps.logger.warn(
        { err, passkeys: batch.size },
        'passkey last-use times not written; retried next minute',
      );
    }
  };
  // One write at a time: a slow one is not overtaken by the next.
  const flush = () => {
    writing = writing.then(write);
    return writing;
  };
  const timer = setInterval(() => void flush(), options.flushMs ?? PASSKEY_USAGE_FLUSH_MS);
  timer.unref();

  return {
    used(passkeyId) {
      pending.set(passkeyId, deps.clock());
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
