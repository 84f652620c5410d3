import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Application } from '../../domain/application.js';
import type { Client } from '../../domain/client.js';
import { isEnvironment } from '../../domain/environment.js';
import type { Passkey } from '../../domain/passkey.js';
import type { Store } from '../../store/database.js';
import {
  type ApplicationCredentials,
  findApplicationById,
  findApplicationCredentials,
  listActiveSecrets,
} from '../../store/repositories/applications.js';
import { listGrantedClients } from '../../store/repositories/clients.js';
import { findDefaultPasskey, findPasskeyByHash } from '../../store/repositories/passkeys.js';
import { hasWebhookEndpoints } from '../../store/repositories/webhook-endpoints.js';
import type { Database } from '../../store/schema.js';
import { createDenyList, type DenyList } from '../auth/create-deny-list.js';
import { createSigningKeys, type SigningKeys } from '../auth/create-signing-keys.js';
import type { Clock, ServiceDeps } from '../deps.js';
import { parseTenancyChange, TENANCY_CHANNEL, type TenancyChange } from './announce-tenancy-change.js';
import { type CachedLookup, createCachedLookup } from './create-cached-lookup.js';

/** An application as a bearer check needs it: its status and which of its secrets still count. */
interface TokenApplication {
  readonly application: Application;
  readonly activeSecretIds: readonly string[];
}

/**
 * The tenancy data of the hot path, held in this process (docs/architecture.md, Caches). Every
 * cache is bounded and trusted for at most TOKEN_CACHE_TTL_MS; changes are applied at once here
 * and announced to the other instances on one Redis channel.
 */
export interface TenancyCache {
  /** By application id. */
  readonly applications: CachedLookup<TokenApplication | undefined>;
  /** By `environment:clientId`: what the token endpoint checks a client secret against. */
  readonly credentials: CachedLookup<ApplicationCredentials | undefined>;
  /** By key hash. */
  readonly passkeys: CachedLookup<Passkey | undefined>;
  /**
   * By application id: the passkey its token calls are charged to when they name none, usable
   * when loaded and held only until it expires.
   */
  readonly defaultPasskeys: CachedLookup<Passkey | undefined>;
  /** By application id. */
  readonly grants: CachedLookup<readonly Client[]>;
  /** By application id: whether it has any webhook endpoint (events are only written then). */
  readonly webhookEndpoints: CachedLookup<boolean>;
  readonly denials: DenyList;
  readonly signingKeys: SigningKeys;
  /** Applies a change to this process's caches (announceTenancyChange does it before publishing). */
  apply(change: TenancyChange): void;
  /** Subscribes to the other instances' announcements (first use: CLI processes never do). */
  listen(): void;
  close(): Promise<void>;
  /**
   * This cache as services see it inside a transaction that `store` writes into
   * (services/idempotency): see cacheWithin. `afterCommit` runs what waits for that commit.
   */
  within(store: Store, afterCommit: (effect: () => Promise<void>) => void): TenancyCache;
}

/** Enough for every active tenant of a busy instance; beyond it the oldest entries go first. */
const TENANCY_CACHE_MAX_ENTRIES = 10_000;

/** What each lookup loads on a miss, read through `db`. */
function loadsThrough(db: Kysely<Database>, clock: Clock) {
  return {
    async applications(id: string): Promise<TokenApplication | undefined> {
      const application = await findApplicationById(db, id);
      if (!application) return undefined;
      const secrets = await listActiveSecrets(db, id);
      return { application, activeSecretIds: secrets.map((s) => s.id) };
    },
    async credentials(key: string): Promise<ApplicationCredentials | undefined> {
      const at = key.indexOf(':');
      const environment = key.slice(0, at);
      if (!isEnvironment(environment)) return undefined;
      return findApplicationCredentials(db, key.slice(at + 1), environment);
    },
    passkeys: (hash: string) => findPasskeyByHash(db, hash),
    defaultPasskeys: (applicationId: string) => findDefaultPasskey(db, applicationId, clock()),
    grants: (applicationId: string) => listGrantedClients(db, applicationId),
    webhookEndpoints: (applicationId: string) => hasWebhookEndpoints(db, applicationId),
  };
}

type Loads = ReturnType<typeof loadsThrough>;
type Lookups = { readonly [K in keyof Loads]: CachedLookup<Awaited<ReturnType<Loads[K]>>> };

export function createTenancyCache(
  deps: Pick<ServiceDeps, 'config' | 'store' | 'clock' | 'logger' | 'redis'>,
): TenancyCache {
  const { store, clock } = deps;
  const ttlMs = deps.config.tokenCacheTtlMs;
  const lookup = <V>(load: (key: string) => Promise<V>, expiresAt?: (value: V) => number | null) =>
    createCachedLookup({ ttlMs, maxEntries: TENANCY_CACHE_MAX_ENTRIES, clock, load, expiresAt });

  const loads = loadsThrough(store.db, clock);
  const lookups: Lookups = {
    applications: lookup(loads.applications),
    credentials: lookup(loads.credentials),
    passkeys: lookup(loads.passkeys),
    defaultPasskeys: lookup(
      loads.defaultPasskeys,
      // Loaded as usable: once it expires, the next usable one is the default (find-token-passkey.ts).
      (passkey) => passkey?.expiresAt ?? null,
    ),
    grants: lookup(loads.grants),
    webhookEndpoints: lookup(loads.webhookEndpoints),
  };
  const denials = createDenyList(deps);
  const signingKeys = createSigningKeys(deps);
  // Every lookup (Lookups has one per load), so that a cache added later is dropped wherever they all are.
  const clearLookups = () => {
    for (const cached of Object.values(lookups)) cached.clear();
  };

  function apply(change: TenancyChange): void {
    if ('denied' in change) {
      denials.add(change.denied.tokenId, change.denied.expiresAt);
    } else if ('signingKeys' in change) {
      signingKeys.markStale();
    } else if ('passkeyId' in change) {
      lookups.passkeys.clear();
      lookups.defaultPasskeys.clear();
    } else {
      // Rare administrative changes: dropping whole caches keeps this obviously complete.
      clearLookups();
    }
  }

  function restart(): void {
    clearLookups();
    denials.markStale();
    signingKeys.markStale();
  }

  let subscriber: Redis | null = null;
  let closed = false;
  const cache: TenancyCache = {
    ...lookups,
    denials,
    signingKeys,
    apply,
    listen() {
      if (subscriber || closed || ttlMs <= 0 || !deps.redis) return;
      subscriber = subscribe(deps.redis, deps.logger, apply, restart, () => closed);
    },
    async close() {
      closed = true;
      subscriber?.disconnect();
    },
    within: (trxStore, afterCommit) => cacheWithin(cache, lookups, { ...deps, store: trxStore }, afterCommit),
  };
  return cache;
}

/**
 * `cache` as services see it inside a transaction that `deps.store` writes into. What memory holds
 * fresh is answered from memory; a miss is read through the transaction, never through the
 * store's own handle, which on SQLite waits for the one connection the transaction holds until it
 * ends. What it reads is not kept (the transaction may still roll back): once it has committed,
 * the lookup loads the key again on its own, so the next request finds it in memory. The deny list
 * and the signing keys read through the transaction on every use: token checks never run in one.
 */
function cacheWithin(
  cache: TenancyCache,
  lookups: Lookups,
  deps: Pick<ServiceDeps, 'config' | 'store' | 'clock'>,
  afterCommit: (effect: () => Promise<void>) => void,
): TenancyCache {
  const remembers = deps.config.tokenCacheTtlMs > 0;
  const through = <V>(cached: CachedLookup<V>, load: (key: string) => Promise<V>): CachedLookup<V> => ({
    get(key) {
      const held = cached.peek(key);
      if (held) return held.value;
      // Not awaited: the answer does not wait for it, and a failed load is only a later miss.
      if (remembers) afterCommit(async () => void Promise.resolve(cached.get(key)).catch(() => {}));
      return load(key);
    },
    peek: (key) => cached.peek(key),
    clear: () => cached.clear(),
  });
  const loads = loadsThrough(deps.store.db, deps.clock);
  const everyTime = { ...deps, config: { ...deps.config, tokenCacheTtlMs: 0 } };
  return {
    ...cache,
    applications: through(lookups.applications, loads.applications),
    credentials: through(lookups.credentials, loads.credentials),
    passkeys: through(lookups.passkeys, loads.passkeys),
    defaultPasskeys: through(lookups.defaultPasskeys, loads.defaultPasskeys),
    grants: through(lookups.grants, loads.grants),
    webhookEndpoints: through(lookups.webhookEndpoints, loads.webhookEndpoints),
    denials: createDenyList(everyTime),
    signingKeys: createSigningKeys(everyTime),
  };
}

function subscribe(
  redis: Redis,
  logger: Logger,
  apply: (change: TenancyChange) => void,
  restart: () => void,
  isClosed: () => boolean,
): Redis {
  // A subscribed connection can run no other command, so it gets its own; it may queue the
  // SUBSCRIBE until connected, however long that takes (the shared connection fails fast
  // instead, and bounds each command): no request waits on it.
  const subscriber = redis.duplicate({
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    commandTimeout: undefined,
  });
  const warn = (message: string, err: Error) => {
    if (!isClosed()) logger.warn({ err: { message: err.message } }, message);
  };
  // Handled, and not logged: the client reconnects by itself (every attempt of a long outage
  // reports an error), the shared connection's users log the outage, and the reconnection
  // drops the caches (below).
  subscriber.on('error', () => {});
  subscriber.on('message', (_channel: string, message: string) => {
    const change = parseTenancyChange(message);
    if (change) apply(change);
  });
  // Announcements made while disconnected are lost: start afresh after every reconnection (which
  // resubscribes). Entries cached before the first subscription rely on the TTL alone.
  subscriber.subscribe(TENANCY_CHANNEL).then(
    () => subscriber.on('ready', restart),
    (err: Error) => warn('tenancy change subscription failed', err),
  );
  return subscriber;
}
