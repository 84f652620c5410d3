import { Redis, type RedisOptions } from 'ioredis';

/** Where the shared Redis is (REDIS_URL, or the Sentinels that name its primary) and how long a command may take. */
export interface RedisSettings {
  readonly url: string | null;
  readonly sentinel: {
    readonly sentinels: readonly { readonly host: string; readonly port: number }[];
    readonly masterName: string;
  } | null;
  readonly commandTimeoutMs: number;
}

/** Reconnection backoff: 100 ms, doubling up to 2 s between attempts, retried for as long as it takes. */
function reconnectDelay(attempts: number): number {
  return Math.min(100 * 2 ** Math.min(attempts - 1, 5), 2000);
}

/**
 * A write refused with READONLY was sent to a server that is a replica now (its primary was
 * replaced, and it was not): reconnect, which asks the Sentinels for the primary again. `1`
 * drops the connection without sending the command again (`2` would resend it): it failed, and
 * its caller decides, as for any other failed command.
 */
function reconnectOnError(err: Error): 1 | false {
  return err.message.startsWith('READONLY') ? 1 : false;
}

/** What every connection shares, with Sentinels or not. */
function commonOptions(settings: RedisSettings): RedisOptions {
  return {
    // Fail fast instead of queueing commands while Redis is down, and bound each command
    // while it is stalled: the limiter decides (RATE_LIMIT_FAIL_MODE) what a request does then
    // (docs/design.md, Limits).
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: settings.commandTimeoutMs,
    // A command whose connection dropped fails rather than running again on the next one: a
    // lease sent twice would be counted twice, and once on a Redis that has not been restored.
    autoResendUnfulfilledCommands: false,
    retryStrategy: reconnectDelay,
    reconnectOnError,
  };
}

/**
 * With Sentinels: each connection asks them for the primary's address, and the ready check
 * (INFO) refuses a server that is not a primary. The failover detector listens for Sentinel's
 * `+switch-master` and drops the connection at once, so a primary that was demoted while it stayed
 * reachable is left, not only one that went away (docs/operations.md, Redis Sentinel). REDIS_URL,
 * when set, gives the credentials, database and TLS of the primary's connections; its address is
 * not used.
 */
function sentinelOptions(
  sentinel: NonNullable<RedisSettings['sentinel']>,
  url: string | null,
  commandTimeoutMs: number,
): RedisOptions {
  return {
    sentinels: sentinel.sentinels.map(({ host, port }) => ({ host, port })),
    name: sentinel.masterName,
    role: 'master',
    failoverDetector: true,
    sentinelRetryStrategy: reconnectDelay,
    // A Sentinel that stops answering is passed over for the next one, not waited on.
    sentinelCommandTimeout: commandTimeoutMs,
    enableTLSForSentinelMode: url?.startsWith('rediss://') ?? false,
  };
}

/** The shared Redis connection the settings name, if any. */
export function createRedisClient(settings: RedisSettings): Redis | null {
  const options = commonOptions(settings);
  if (settings.sentinel) {
    const sentinel = {
      ...options,
      ...sentinelOptions(settings.sentinel, settings.url, settings.commandTimeoutMs),
    };
    return settings.url ? new Redis(settings.url, sentinel) : new Redis(sentinel);
  }
  return settings.url ? new Redis(settings.url, options) : null;
}
