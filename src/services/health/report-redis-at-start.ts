import type { ServiceDeps } from '../deps.js';

/** How long the first connection to Redis may take before the start reports it unreachable. */
const FIRST_CONNECTION_MS = 2_000;

/**
 * At start, Redis not being reachable fails nothing (the instance serves, the limiter answers as
 * RATE_LIMIT_FAIL_MODE says), but it is an outage like any other: logged once when the start
 * finds it, once when it ends (deps.outages), and shown by `rpa_dependency_up`, rather than left
 * unsaid until the first call that needs Redis.
 */
export async function reportRedisAtStart(deps: Pick<ServiceDeps, 'redis' | 'outages'>): Promise<void> {
  const { redis, outages } = deps;
  if (!redis || redis.status === 'ready') return;
  const connected = await new Promise<boolean>((resolve) => {
    const done = (ready: boolean) => () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onFailure);
      resolve(ready);
    };
    const onReady = done(true);
    const onFailure = done(false);
    const timer = setTimeout(onFailure, FIRST_CONNECTION_MS);
    timer.unref();
    redis.once('ready', onReady);
    redis.once('error', onFailure);
  });
  if (connected || (redis.status as string) === 'ready') return;
  outages.down('redis', new Error('Redis is not reachable'));
  redis.once('ready', () => outages.up('redis'));
}
