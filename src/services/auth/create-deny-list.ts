import type { Config } from '../../config.js';
import { createSharedLoads } from '../../store/create-shared-loads.js';
import type { Store } from '../../store/database.js';
import {
  deleteExpiredTokenDenials,
  isTokenDenied,
  listLiveTokenDenials,
} from '../../store/repositories/token-denials.js';
import type { Clock } from '../deps.js';
import type { MaybePromise } from '../maybe-promise.js';

/** Tokens revoked one by one (RFC 7009) that have not yet expired on their own. */
export interface DenyList {
  /** At once from memory, unless the entries are due a re-read (or TOKEN_CACHE_TTL_MS is 0). */
  isDenied(tokenId: string): MaybePromise<boolean>;
  /** Records a revocation made here or announced by another instance. */
  add(tokenId: string, expiresAt: number): void;
  /** Re-read the entries on next use (after a lost connection to the announcements). */
  markStale(): void;
}

/** Expired entries deleted per sync: the work stays small however many piled up. */
const DENIAL_CLEANUP_BATCH = 500;

/**
 * Every live entry is held in memory (they are few: only explicitly revoked, unexpired tokens),
 * re-read every TOKEN_CACHE_TTL_MS and extended at once by announcements. Entries are never taken
 * back before expiry, so a sync only adds to what is known. TOKEN_CACHE_TTL_MS=0 asks the
 * database on every check.
 */
export function createDenyList(deps: { config: Config; store: Store; clock: Clock }): DenyList {
  const ttl = deps.config.tokenCacheTtlMs;
  const entries = new Map<string, number>();
  let syncedAt = Number.NEGATIVE_INFINITY;
  const syncs = createSharedLoads<'entries', void>();
  let generation = 0;

  async function sync(): Promise<void> {
    const startedAt = generation;
    const now = deps.clock();
    const rows = await listLiveTokenDenials(deps.store.db, now);
    for (const row of rows) entries.set(row.token_id, row.expires_at);
    for (const [id, expiresAt] of entries) if (expiresAt <= now) entries.delete(id);
    await deleteExpiredTokenDenials(deps.store.db, now, DENIAL_CLEANUP_BATCH);
    if (startedAt === generation) syncedAt = now;
  }

  return {
    isDenied(tokenId) {
      if (ttl <= 0) return isTokenDenied(deps.store.db, tokenId, deps.clock());
      if (syncedAt + ttl <= deps.clock()) {
        return syncs.load('entries', sync).then(() => entries.has(tokenId));
      }
      return entries.has(tokenId);
    },
    add(tokenId, expiresAt) {
      entries.set(tokenId, expiresAt);
    },
    markStale() {
      generation += 1;
      syncedAt = Number.NEGATIVE_INFINITY;
    },
  };
}
