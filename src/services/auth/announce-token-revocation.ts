import type { Redis } from 'ioredis';
import type { ServiceDeps } from '../deps.js';

/** What was revoked: one token (by hash), every token of an application, or of one secret. */
export type TokenRevocation =
  | { readonly tokenHash: string }
  | { readonly applicationId: string }
  | { readonly secretId: string };

export const TOKEN_REVOCATION_CHANNEL = 'rpa:token-revocations';

const READY_WAIT_MS = 2000;
const STARTING = new Set(['wait', 'connecting', 'connect']);

function whenReady(redis: Redis, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
  });
}

/**
 * Tells every instance's token cache (create-token-verifier.ts) to drop what was just revoked in
 * the database. Best effort: when Redis is absent or down, instances still re-check every token
 * within TOKEN_CACHE_TTL_MS, which is the guarantee; the message only makes it immediate.
 */
export async function announceTokenRevocation(deps: ServiceDeps, revocation: TokenRevocation): Promise<void> {
  const redis = deps.redis;
  if (!redis) return;
  try {
    // The shared connection fails fast instead of queueing; a CLI process (`rpa apps revoke`)
    // may revoke before its fresh connection is up, so wait for that briefly (not for a
    // reconnection after an outage: then the cache TTL covers it).
    if (STARTING.has(redis.status)) await whenReady(redis, READY_WAIT_MS);
    await redis.publish(TOKEN_REVOCATION_CHANNEL, JSON.stringify(revocation));
  } catch (err) {
    deps.logger.warn(
      { err: { message: (err as Error).message } },
      'token revocation not announced; other instances notice it when their cache entry expires',
    );
  }
}

export function parseTokenRevocation(message: string): TokenRevocation | null {
  try {
    const value = JSON.parse(message) as Record<string, unknown>;
    for (const key of ['tokenHash', 'applicationId', 'secretId'] as const) {
      if (typeof value[key] === 'string') return { [key]: value[key] } as TokenRevocation;
    }
  } catch {
    // A malformed message is ignored: the cache TTL still bounds staleness.
  }
  return null;
}
