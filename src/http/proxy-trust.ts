import { BlockList, isIP } from 'node:net';
import type { TrustedProxies } from '../config.js';

/**
 * Fastify's `trustProxy` as a function (proxy-addr's): whether the address `hop` steps from the
 * listener (0: the connection's peer, then X-Forwarded-For from the right) is a proxy. Fastify
 * walks leftwards while it is, so `request.ip` is the first address that is not: what the nearest
 * untrusted hop said, never an entry a caller wrote further left (RFC 7239 §8.1: any hop may
 * have written the field; only what trusted proxies added can be believed). The Host and scheme of X-Forwarded-Host and
 * X-Forwarded-Proto are believed only from a trusted peer. Both listeners use it.
 */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * The listener's rule from its setting; false trusts no peer, so X-Forwarded-* are ignored.
 * A bare hop count is built here rather than passed to Fastify, which trusts no peer given a
 * number alone.
 */
export function proxyTrust(trusted: TrustedProxies | null): ProxyTrust | false {
  if (trusted === null) return false;
  const hops = trusted.hops ?? Number.POSITIVE_INFINITY;
  if (trusted.networks.length === 0) return (_address, hop) => hop < hops;
  const networks = new BlockList();
  for (const { address, prefix, family } of trusted.networks) networks.addSubnet(address, prefix, family);
  return (address, hop) => {
    if (hop >= hops) return false;
    // A forwarded entry may be anything a proxy passed on; only an address can be a proxy.
    const version = isIP(address);
    return version !== 0 && networks.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
}
