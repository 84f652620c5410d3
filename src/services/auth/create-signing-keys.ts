import { randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import { type TokenMacKey, tokenMacKey } from '../../domain/access-token.js';
import type { Store } from '../../store/database.js';
import { insertSigningKey, listUsableSigningKeys } from '../../store/repositories/token-signing-keys.js';
import type { Clock } from '../deps.js';
import type { MaybePromise } from '../maybe-promise.js';

export interface SigningKey {
  readonly id: string;
  readonly key: TokenMacKey;
  readonly createdAt: number;
  /** Null while the key signs; after this time its tokens are refused. */
  readonly retireAt: number | null;
}

export interface SigningKeys {
  /** The newest key this instance knows, to sign with: at once unless the keys are due a read. */
  current(): MaybePromise<SigningKey>;
  /**
   * A key that may still verify, or null: at once when the keys are fresh and hold the id. An id
   * not known here makes it look again (rate-limited).
   */
  find(id: string): MaybePromise<SigningKey | null>;
  /** Re-read the keys on next use (an announcement of a rotation). */
  markStale(): void;
}

/** Forged key ids cost at most one database read per this interval (and instance). */
const UNKNOWN_KEY_RELOAD_INTERVAL_MS = 1000;

/**
 * The keys in the database that may still verify, making the first when none signs: the first
 * instance on a database makes it. Two instances starting together may both do so; either key
 * verifies everywhere and the newer one signs.
 */
async function readSigningKeys(store: Store, now: number): Promise<SigningKey[]> {
  let rows = await listUsableSigningKeys(store.db, now);
  if (!rows.some((r) => r.retire_at === null)) {
    await insertSigningKey(store.db, {
      id: randomUUID(),
      key_material: randomBytes(32).toString('base64url'),
      created_at: now,
      retire_at: null,
    });
    rows = await listUsableSigningKeys(store.db, now);
  }
  return rows.map((r) => ({
    id: r.id,
    key: tokenMacKey(Buffer.from(r.key_material, 'base64url')),
    createdAt: r.created_at,
    retireAt: r.retire_at,
  }));
}

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

  async function load(): Promise<void> {
    const startedAt = generation;
    const now = deps.clock();
    keys = await readSigningKeys(deps.store, now);
    if (startedAt === generation) loadedAt = now;
  }

  function reload(): Promise<void> {
    loading ??= load().finally(() => {
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

  async function findAfterRead(id: string): Promise<SigningKey | null> {
    await fresh();
    let key = keys.find((k) => k.id === id);
    if (!key && deps.clock() - lastUnknownReloadAt >= UNKNOWN_KEY_RELOAD_INTERVAL_MS) {
      lastUnknownReloadAt = deps.clock();
      await reload();
      key = keys.find((k) => k.id === id);
    }
    return key && usable(key) ? key : null;
  }

  return {
    current() {
      return held() ? newestSigning() : fresh().then(newestSigning);
    },
    find(id) {
      const key = held() ? keys.find((k) => k.id === id) : undefined;
      if (!key) return findAfterRead(id);
      return usable(key) ? key : null;
    },
    markStale() {
      generation += 1;
      loadedAt = Number.NEGATIVE_INFINITY;
    },
  };
}
