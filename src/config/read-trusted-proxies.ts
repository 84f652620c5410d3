import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';
import type { Env } from './env-readers.js';

/** An address (the longest prefix) or a network whose peers are trusted proxies. */
interface TrustedNetwork {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

/**
 * The proxies in front of a listener (TRUST_PROXY, ADMIN_TRUST_PROXY): the caller is the first
 * address of X-Forwarded-For, read from the right, that is not one of them.
 */
export interface TrustedProxies {
  /** Where a proxy may be; empty: anywhere, within `hops`. */
  readonly networks: readonly TrustedNetwork[];
  /** How many proxies in a row at most, counted from the listener; null: no bound but `networks`. */
  readonly hops: number | null;
}

/** Networks named by one word, as proxy-addr (under Fastify and Express) names them. */
const NAMED_NETWORKS: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const MAX_HOPS = 32;

const TRUST_ALL =
  'would trust every address, so any caller could name its own in X-Forwarded-For and be ' +
  'throttled, and logged, as someone else; give the addresses or networks of the proxies ' +
  '(e.g. 10.0.0.0/8) and/or how many proxies stand in front (e.g. 1)';

/** `address` or `address/prefix` (IPv6 in brackets or not); a prefix of 0 is every address. */
function networkOf(name: string, text: string): TrustedNetwork {
  const slash = text.indexOf('/');
  const address = (slash === -1 ? text : text.slice(0, slash)).replace(/^\[(.*)\]$/, '$1');
  const version = isIP(address);
  if (version === 0) throw new ConfigError(name, `"${text}" is not an IP address or network (CIDR)`);
  const family = version === 4 ? 'ipv4' : 'ipv6';
  const bits = version === 4 ? 32 : 128;
  const prefixText = slash === -1 ? String(bits) : text.slice(slash + 1);
  const prefix = Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText) || prefix > bits)
    throw new ConfigError(name, `"${text}": the prefix length must be 0 to ${bits}`);
  if (prefix === 0) throw new ConfigError(name, `"${text}" ${TRUST_ALL}`);
  return Object.freeze({ address, prefix, family });
}

/**
 * TRUST_PROXY and ADMIN_TRUST_PROXY: which peers of a listener are proxies whose X-Forwarded-For
 * is believed (docs/configuration.md). A comma-separated list of addresses, networks (CIDR) and
 * the names loopback, linklocal and uniquelocal, and/or one hop count: how many proxies at most,
 * counted from the listener. `false` (or unset, or 0) trusts none. `true` is refused: trusting
 * every address lets a caller choose the address it is counted against (OWASP Authentication
 * Cheat Sheet, Protect Against Automated Attacks: per-address throttling needs the real address).
 */
export function readTrustedProxies(env: Env, name: string): TrustedProxies | null {
  const raw = env[name]?.trim() ?? '';
  const word = raw.toLowerCase();
  if (['', 'false', 'no', 'off', '0'].includes(word)) return null;
  if (['true', 'yes', 'on'].includes(word)) throw new ConfigError(name, `${raw} ${TRUST_ALL}`);
  const networks: TrustedNetwork[] = [];
  let hops: number | null = null;
  for (const entry of raw.split(',').map((e) => e.trim())) {
    if (entry === '')
      throw new ConfigError(name, `expected addresses, networks or a hop count, got "${raw}"`);
    if (/^\d+$/.test(entry)) {
      if (hops !== null) throw new ConfigError(name, `give one hop count at most, got "${raw}"`);
      hops = Number(entry);
      if (hops < 1 || hops > MAX_HOPS)
        throw new ConfigError(name, `the hop count must be between 1 and ${MAX_HOPS}, got ${entry}`);
      continue;
    }
    for (const text of NAMED_NETWORKS[entry.toLowerCase()] ?? [entry]) networks.push(networkOf(name, text));
  }
  return Object.freeze({ networks: Object.freeze(networks), hops });
}
