import type { Config } from '../config.js';
import { ConfigError } from './config-error.js';
import { type Env, readEnum, readInt, readShare } from './env-readers.js';

/*
 * Settings checked for more than a type and a range (config.ts): addresses, host lists, keys,
 * time windows, and settings that depend on one another.
 */

export function readDatabaseUrl(env: Env): string {
  const raw = env.DATABASE_URL?.trim() || 'sqlite:./var/app.db';
  if (raw.startsWith('sqlite:') && raw.length > 'sqlite:'.length) return raw;
  if (/^postgres(ql)?:\/\/.+/.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return raw;
  }
  throw new ConfigError('DATABASE_URL', 'expected sqlite:PATH, sqlite::memory: or postgres://...');
}

export function readSchema(env: Env): string | null {
  const raw = env.DATABASE_SCHEMA?.trim();
  if (!raw) return null;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(raw))
    throw new ConfigError('DATABASE_SCHEMA', 'expected a lower-case SQL identifier');
  return raw;
}

export function readRedisUrl(env: Env): string | null {
  const raw = env.REDIS_URL?.trim();
  if (!raw) return null;
  if (!/^rediss?:\/\/.+/.test(raw))
    throw new ConfigError('REDIS_URL', 'expected redis://... or rediss://...');
  return raw;
}

/**
 * REDIS_SENTINELS and REDIS_SENTINEL_MASTER, given together or not at all: the Sentinels to ask
 * where the primary of the named master is (docs/operations.md, Redis Sentinel).
 */
export function readRedisSentinel(env: Env): Config['redisSentinel'] {
  const list = env.REDIS_SENTINELS?.trim();
  const masterName = env.REDIS_SENTINEL_MASTER?.trim();
  if (!list && !masterName) return null;
  if (!list) throw new ConfigError('REDIS_SENTINELS', 'must be set with REDIS_SENTINEL_MASTER');
  if (!masterName) throw new ConfigError('REDIS_SENTINEL_MASTER', 'must be set with REDIS_SENTINELS');
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(masterName))
    throw new ConfigError(
      'REDIS_SENTINEL_MASTER',
      'expected a master name of letters, digits, ".", "_" or "-"',
    );
  const sentinels = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((address) => {
      const m = /^([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$/.exec(address);
      const port = Number(m?.[2]);
      if (!m || port < 1 || port > 65535)
        throw new ConfigError('REDIS_SENTINELS', `"${address}" is not host:port`);
      return Object.freeze({ host: m[1]!.replace(/^\[|\]$/g, ''), port });
    });
  if (sentinels.length === 0) throw new ConfigError('REDIS_SENTINELS', 'expected host:port,host:port,...');
  return Object.freeze({ sentinels: Object.freeze(sentinels), masterName });
}

export function readHosts(env: Env): readonly string[] | null {
  const raw = env.ALLOWED_HOSTS?.trim();
  if (!raw) return null;
  const hosts = raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const h of hosts) {
    if (!/^[a-z0-9.-]+$/.test(h)) throw new ConfigError('ALLOWED_HOSTS', `"${h}" is not a host name`);
  }
  return Object.freeze(hosts);
}

/** A comma-separated list of host names or IP addresses (IPv6 without brackets), lower case. */
export function readHostList(env: Env, name: string): readonly string[] {
  const hosts = (env[name] ?? '')
    .split(',')
    .map((h) =>
      h
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1'),
    )
    .filter(Boolean);
  for (const h of hosts) {
    if (!/^[a-z0-9.:-]+$/.test(h)) throw new ConfigError(name, `"${h}" is not a host name or IP address`);
  }
  return Object.freeze(hosts);
}

export function readHashKey(env: Env): string | null {
  const raw = env.IDENTIFIER_HASH_KEY?.trim();
  if (!raw) return null;
  if (raw.length < 32) throw new ConfigError('IDENTIFIER_HASH_KEY', 'must be at least 32 characters');
  return raw;
}

/**
 * `HH:MM-HH:MM` in UTC. `24:00` is allowed as an end, so `00:00-24:00` is the whole day; an end
 * before the start wraps midnight (`23:00-01:00`).
 */
export function readWindow(
  env: Env,
  name: string,
  fallback: string,
): { startMinute: number; endMinute: number } {
  const raw = env[name]?.trim() || fallback;
  const m = /^([01]\d|2[0-4]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/.exec(raw);
  if (!m) throw new ConfigError(name, `expected HH:MM-HH:MM (UTC), got "${raw}"`);
  const startMinute = Number(m[1]) * 60 + Number(m[2]);
  const endMinute = Number(m[3]) * 60 + Number(m[4]);
  if (startMinute >= 1440) throw new ConfigError(name, `a window starts before 24:00, got "${raw}"`);
  if (endMinute > 1440) throw new ConfigError(name, `a window ends at 24:00 at the latest, got "${raw}"`);
  if (startMinute === endMinute)
    throw new ConfigError(name, `the window is empty (00:00-24:00 is the whole day), got "${raw}"`);
  return { startMinute, endMinute };
}

/** Node refuses a header timeout longer than the request timeout, which covers the headers too. */
export function readConnections(env: Env): Config['connections'] {
  const requestTimeoutMs = readInt(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  const headersTimeoutMs = readInt(
    env,
    'HEADERS_TIMEOUT_MS',
    Math.min(10_000, requestTimeoutMs),
    100,
    3_600_000,
  );
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError(
      'HEADERS_TIMEOUT_MS',
      `must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs}), got ${headersTimeoutMs}`,
    );
  const keepAliveTimeoutMs = readInt(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000);
  return { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs };
}

/** What each listener beside the public port serves, as its errors name it. */
const SIDE_LISTENERS = { METRICS: 'metrics are', ADMIN: 'the admin API is' } as const;

/**
 * A listener of its own beside the public port (`METRICS` or `ADMIN`): `<NAME>_PORT` and
 * `<NAME>_HOST`, loopback by default; null when no port is set.
 */
export function readSideListener(
  env: Env,
  name: keyof typeof SIDE_LISTENERS,
  publicPort: number,
): { readonly port: number; readonly host: string } | null {
  // Read whether or not a port is set, so that configVariables() sees it (config.ts).
  const host = env[`${name}_HOST`]?.trim() || '127.0.0.1';
  const raw = env[`${name}_PORT`]?.trim();
  if (raw === undefined || raw === '') return null;
  const port = readInt(env, `${name}_PORT`, 0, 0, 65535);
  if (port !== 0 && port === publicPort)
    throw new ConfigError(
      `${name}_PORT`,
      `must differ from PORT: ${SIDE_LISTENERS[name]} never served on the public port`,
    );
  return { port, host };
}

/**
 * AUTH_FAILURE_LIMIT counts one credential's failures from one address, AUTH_FAILURE_ADDRESS_LIMIT
 * every failure from it (docs/design.md, Token service). The second is the looser: a lower one
 * would leave the first unreachable. It defaults to ten credentials' worth of failures.
 */
export function readAuthFailureLimits(
  env: Env,
): Pick<Config, 'authFailureLimit' | 'authFailureAddressLimit'> {
  const authFailureLimit = readInt(env, 'AUTH_FAILURE_LIMIT', 10, 1, 100_000);
  const authFailureAddressLimit = readInt(
    env,
    'AUTH_FAILURE_ADDRESS_LIMIT',
    Math.min(10 * authFailureLimit, 1_000_000),
    1,
    1_000_000,
  );
  if (authFailureAddressLimit < authFailureLimit)
    throw new ConfigError(
      'AUTH_FAILURE_ADDRESS_LIMIT',
      `must be at least AUTH_FAILURE_LIMIT (${authFailureLimit}), got ${authFailureAddressLimit}`,
    );
  return { authFailureLimit, authFailureAddressLimit };
}

/**
 * ACCESS_LOG, ACCESS_LOG_SAMPLE and ACCESS_LOG_SLOW_MS. A call slower than ACCESS_LOG_SLOW_MS is
 * kept however the others are thinned: it is what an operator looks for in them.
 */
export function readAccessLog(env: Env): Config['accessLog'] {
  return {
    mode: readEnum(env, 'ACCESS_LOG', ['on', 'errors', 'off'] as const, 'on'),
    sample: readShare(env, 'ACCESS_LOG_SAMPLE', 1),
    slowMs: readInt(env, 'ACCESS_LOG_SLOW_MS', 1000, 1, 3_600_000),
  };
}
