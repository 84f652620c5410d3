import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { hashCredential } from '../../domain/credentials.js';
import type { Environment } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import { findTokenWithApplication } from '../../store/repositories/access-tokens.js';
import type { ServiceDeps } from '../deps.js';
import {
  parseTokenRevocation,
  TOKEN_REVOCATION_CHANNEL,
  type TokenRevocation,
} from './announce-token-revocation.js';

/** The application an access token was issued to. */
export interface Principal {
  readonly applicationId: string;
  readonly applicationName: string;
  readonly clientId: string;
  readonly environment: Environment;
  readonly tokenHash: string;
  readonly expiresAt: number;
}

export interface TokenVerifier {
  /** Resolves the application behind a bearer token, or throws INVALID_TOKEN. */
  verify(token: string, environment: Environment): Promise<Principal>;
  /** Drops cached tokens of this process at once (revocations made here). */
  forget(revocation: TokenRevocation): void;
  close(): Promise<void>;
}

const bearerError = (description: string) =>
  new AppError('INVALID_TOKEN', {
    detail: description,
    // RFC 6750 §3: the challenge names the error when a token was presented.
    headers: {
      'www-authenticate': `Bearer realm="api", error="invalid_token", error_description="${description}"`,
    },
  });

const INVALID = 'The access token is invalid';
const REVOKED = 'The access token has been revoked';
const EXPIRED = 'The access token has expired';

/** Enough for every live token of a busy instance; beyond it the oldest entries go first. */
export const TOKEN_CACHE_MAX_ENTRIES = 10_000;

interface CacheEntry {
  readonly principal: Principal;
  readonly secretId: string | null;
  /** Clock time until which this instance trusts the entry without asking the database. */
  readonly freshUntil: number;
}

type Lookup = { readonly entry: CacheEntry } | { readonly failure: string };

/**
 * Bearer tokens are checked against the database at most once per TOKEN_CACHE_TTL_MS per
 * instance; in between, a bounded in-process cache answers. That bounds how long a revoked token
 * keeps working on any instance. With Redis, revocations are also announced on a channel
 * (announce-token-revocation.ts) and every instance drops the entries at once; the TTL still
 * covers lost messages. TOKEN_CACHE_TTL_MS=0 asks the database on every request.
 */
export function createTokenVerifier(deps: ServiceDeps): TokenVerifier {
  const ttl = deps.config.tokenCacheTtlMs;
  const cache = new Map<string, CacheEntry>();
  // Concurrent first uses of one token share one database round trip.
  const loading = new Map<string, Promise<Lookup>>();
  // Bumped by every revocation: a lookup that started before one must not refill the cache.
  let generation = 0;

  function forget(revocation: TokenRevocation): void {
    generation += 1;
    if ('tokenHash' in revocation) {
      cache.delete(revocation.tokenHash);
      return;
    }
    for (const [hash, entry] of cache) {
      if (
        ('applicationId' in revocation && entry.principal.applicationId === revocation.applicationId) ||
        ('secretId' in revocation && entry.secretId === revocation.secretId)
      ) {
        cache.delete(hash);
      }
    }
  }

  async function lookup(tokenHash: string): Promise<Lookup> {
    const startedAt = generation;
    const row = await findTokenWithApplication(deps.store.db, tokenHash);
    if (row?.application_status !== 'active') return { failure: INVALID };
    if (row.revoked_at !== null) return { failure: REVOKED };
    const entry: CacheEntry = {
      principal: {
        applicationId: row.application_id,
        applicationName: row.application_name,
        clientId: row.client_id,
        environment: row.environment,
        tokenHash,
        expiresAt: row.expires_at,
      },
      secretId: row.secret_id,
      freshUntil: deps.clock() + ttl,
    };
    if (ttl > 0 && startedAt === generation) {
      if (cache.size >= TOKEN_CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(tokenHash, entry);
    }
    return { entry };
  }

  async function resolve(tokenHash: string): Promise<Lookup> {
    const cached = cache.get(tokenHash);
    if (cached && cached.freshUntil > deps.clock()) return { entry: cached };
    cache.delete(tokenHash);
    let pending = loading.get(tokenHash);
    if (!pending) {
      pending = lookup(tokenHash).finally(() => loading.delete(tokenHash));
      loading.set(tokenHash, pending);
    }
    return pending;
  }

  // Subscribed on first use: processes that never check a token (CLI, worker) open no connection.
  let subscriber: Redis | null = null;
  let closed = false;
  const listen = () => {
    if (subscriber || closed || ttl === 0 || !deps.redis) return;
    const restart = () => {
      generation += 1;
      cache.clear();
    };
    subscriber = subscribe(deps.redis, deps.logger, forget, restart, () => closed);
  };

  return {
    async verify(token, environment) {
      listen();
      const result = await resolve(hashCredential(token));
      if ('failure' in result) throw bearerError(result.failure);
      const { principal } = result.entry;
      // A token of the other environment is as unknown here as a made-up one.
      if (principal.environment !== environment) throw bearerError(INVALID);
      if (principal.expiresAt <= deps.clock()) throw bearerError(EXPIRED);
      return principal;
    },
    forget,
    async close() {
      closed = true;
      subscriber?.disconnect();
    },
  };
}

function subscribe(
  redis: Redis,
  logger: Logger,
  forget: (r: TokenRevocation) => void,
  clear: () => void,
  isClosed: () => boolean,
): Redis {
  // A subscribed connection can run no other command, so it gets its own; it may queue the
  // SUBSCRIBE until connected (the shared connection fails fast instead).
  const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  const warn = (message: string, err: Error) => {
    if (!isClosed()) logger.warn({ err: { message: err.message } }, message);
  };
  subscriber.on('error', (err: Error) => warn('token revocation subscriber error', err));
  subscriber.on('message', (_channel: string, message: string) => {
    const revocation = parseTokenRevocation(message);
    if (revocation) forget(revocation);
  });
  // Announcements made while disconnected are lost: start afresh after every reconnection (which
  // resubscribes). Entries cached before the first subscription rely on the TTL alone.
  subscriber.subscribe(TOKEN_REVOCATION_CHANNEL).then(
    () => subscriber.on('ready', clear),
    (err: Error) => warn('token revocation subscription failed', err),
  );
  return subscriber;
}
