import { randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import { type TokenMacKey, tokenMacKey } from '../../domain/access-token.js';
import type { Store } from '../../store/database.js';
import { insertSigningKey, listUsableSigningKeys } from '../../store/repositories/token-signing-keys.js';
import type { Clock } from '../deps.js';

export interface SigningKey {
  readonly id: string;
  readonly key: TokenMacKey;
  readonly createdAt: number;
  /** Null while the key signs; after this time its tokens are refused. */
  readonly retireAt: number | null;
}

export interface SigningKeys {
  /** The newest key this instance knows, to sign with. */
  current(): Promise<SigningKey>;
  /** What current() would answer from memory, or undefined when it would read (keys due). */
  currentHeld(): SigningKey | undefined;
  /** A key that may still verify, or null; an id not known here makes it look again (rate-limited). */
  find(id: string): Promise<SigningKey | null>;
  /** What find() would answer from memory, or undefined when it would read (keys due, id unknown). */
  findHeld(id: string): SigningKey | null | undefined;
  /** Re-read the keys on next use (an announcement of a rotation). */
  markStale(): void;
}

/** Forged key ids cost at most one database read per this interval (and instance). */
export const UNKNOWN_KEY_RELOAD_INTERVAL_MS = 1000;

/**
 * The instance-wide HMAC keys of access tokens, read from the database and kept in memory: re-read
 * every TOKEN_CACHE_TTL_MS, on a rotation announcement, or when a token names a key not known here
 * (another instance may have started signing with a newer one). Loads are shared.
 */
export function createSigningKeys(deps: { config: Config; store: Store; clock: Clock }): SigningKeys {
  const ttl = deps.config.tokenCacheTtlMs;
  let keys: SigningKey[] = [];
  let loadedAt = Number.NEGATIVE_INFINITY;
  let lastUnknownReloadAt = Number.NEGATIVE_INFINITY;
  let loading: Promise<void> | null = null;
  let generation = 0;

  async function read(): Promise<void> {
    const startedAt = generation;
    const now = deps.clock();
    let rows = await listUsableSigningKeys(deps.store.db, now);
    if (!rows.some((r) => r.retire_at === null)) {
      // The first instance on a database makes the first key. Two instances starting together may
      // both do so; either key verifies everywhere and the newer one signs.
      await insertSigningKey(deps.store.db, {
        id: randomUUID(),
        key_material: randomBytes(32).toString('base64url'),
        created_at: now,
        retire_at: null,
      });
      rows = await listUsableSigningKeys(deps.store.db, now);
    }
    keys = rows.map((r) => ({
      id: r.id,
      key: tokenMacKey(Buffer.from(r.key_material, 'base64url')),
      createdAt: r.created_at,
      retireAt: r.retire_at,
    }));
    if (startedAt === generation) loadedAt = now;
  }

  function reload(): Promise<void> {
    loading ??= read().finally(() => {
      loading = null;
    });
    return loading;
  }

  const due = () => loadedAt + ttl <= deps.clock();

  async function fresh(): Promise<void> {
    if (loading) await loading;
    if (due()) await reload();
  }

  /** Whether memory answers as fresh() would leave it, without waiting: no load under way or due. */
  const held = () => loading === null && !due();

  function newestSigning(): SigningKey {
    // Rows come ordered by creation time: the last that signs is the newest.
    const newest = keys.findLast((k) => k.retireAt === null);
    if (!newest) throw new Error('no token signing key');
    return newest;
  }

  const usable = (k: SigningKey) => k.retireAt === null || k.retireAt > deps.clock();

  return {
    async current() {
      await fresh();
      return newestSigning();
    },
    currentHeld() {
      if (!held()) return undefined;
      return newestSigning();
    },
    async find(id) {
      await fresh();
      let key = keys.find((k) => k.id === id);
      if (!key && deps.clock() - lastUnknownReloadAt >= UNKNOWN_KEY_RELOAD_INTERVAL_MS) {
        lastUnknownReloadAt = deps.clock();
        await reload();
        key = keys.find((k) => k.id === id);
      }
      return key && usable(key) ? key : null;
    },
    findHeld(id) {
      if (!held()) return undefined;
      const key = keys.find((k) => k.id === id);
      if (!key) return undefined;
      return usable(key) ? key : null;
    },
    markStale() {
      generation += 1;
      loadedAt = Number.NEGATIVE_INFINITY;
    },
  };
}
