import type { Redis } from 'ioredis';
import { cannotConnect } from '../../store/driver-errors.js';
import { afterCommit } from '../after-commit.js';
import type { ServiceDeps } from '../deps.js';

/**
 * A change other instances must apply at once (docs/architecture.md, Caches): an RFC 7009
 * revocation of one token, a change to an application (status, secrets, grants, webhook
 * endpoints), to a passkey, or a new token signing key.
 */
export type TenancyChange =
  | { readonly denied: { readonly tokenId: string; readonly expiresAt: number } }
  | { readonly applicationId: string }
  | { readonly passkeyId: string }
  | { readonly signingKeys: true };

export const TENANCY_CHANNEL = 'rpa:tenancy-changes';

const READY_WAIT_MS = 2000;
const STARTING = new Set(['wait', 'connecting', 'connect']);

/** Resolves once the connection is ready, or after `ms` with the last reason it could not connect, if any. */
function whenReady(redis: Redis, ms: number): Promise<unknown> {
  return new Promise((resolve) => {
    let failure: unknown;
    const failed = (err: unknown) => {
      failure = err;
    };
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', failed);
      resolve(failure);
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
    redis.on('error', failed);
  });
}

/**
 * Which setting failed and where it points, never its password: `REDIS_URL: cannot connect to
 * host:port (ECONNREFUSED)` (or the Sentinels' master name), with the code when an attempt was
 * seen failing while waiting.
 */
function unreachable(config: ServiceDeps['config'], err: unknown): Error {
  const code = (err as { code?: unknown } | undefined)?.code;
  const reason = typeof code === 'string' ? code : undefined;
  const sentinel = config.redisSentinel;
  if (sentinel) {
    const why = reason ? ` (${reason})` : '';
    return new Error(`REDIS_SENTINELS: cannot reach the primary of ${sentinel.masterName}${why}`, {
      cause: err,
    });
  }
  return new Error(`REDIS_URL: ${cannotConnect(config.redisUrl ?? '', '6379', reason)}`, { cause: err });
}

/**
 * Applies a change just written to the database to this process's caches, and tells every other
 * instance (and CLI processes' changes reach servers the same way). Best effort: when Redis is
 * absent or down, instances still re-read everything within TOKEN_CACHE_TTL_MS, which is the
 * guarantee; the message only makes it immediate.
 */
export function announceTenancyChange(deps: ServiceDeps, change: TenancyChange): Promise<void> {
  // Instances told before the commit would re-read the database before the change is in it.
  return afterCommit(deps, () => announceNow(deps, change));
}

async function announceNow(deps: ServiceDeps, change: TenancyChange): Promise<void> {
  deps.cache.apply(change);
  const redis = deps.redis;
  if (!redis) return;
  try {
    // The shared connection fails fast instead of queueing; a CLI process (`rpa apps revoke`)
    // may announce before its fresh connection is up, so wait for that briefly (not for a
    // reconnection after an outage: then the cache TTL covers it).
    const failure = STARTING.has(redis.status) ? await whenReady(redis, READY_WAIT_MS) : undefined;
    // Not connected: the client's own words ("Stream isn't writeable") would not say to what.
    if (redis.status !== 'ready') throw unreachable(deps.config, failure);
    await redis.publish(TENANCY_CHANNEL, JSON.stringify(change));
  } catch (err) {
    deps.logger.warn(
      { err: { message: (err as Error).message } },
      'tenancy change not announced; other instances notice it when their cache entry expires',
    );
  }
}

export function parseTenancyChange(message: string): TenancyChange | null {
  try {
    const value = JSON.parse(message) as Record<string, unknown>;
    const denied = value.denied as Record<string, unknown> | undefined;
    if (denied && typeof denied.tokenId === 'string' && typeof denied.expiresAt === 'number') {
      return { denied: { tokenId: denied.tokenId, expiresAt: denied.expiresAt } };
    }
    if (typeof value.applicationId === 'string') return { applicationId: value.applicationId };
    if (typeof value.passkeyId === 'string') return { passkeyId: value.passkeyId };
    if (value.signingKeys === true) return { signingKeys: true };
  } catch {
    // A malformed message is ignored: the cache TTL still bounds staleness.
  }
  return null;
}
