import { BlockList, isIP } from 'node:net';
import { AppError } from '../errors.js';

/** Which endpoint URLs an operator allows beyond public https ones (docs/webhooks.md, Endpoint URLs). */
export interface WebhookUrlPolicy {
  /** Hosts that may be sent events over plain http. */
  readonly allowHttpHosts: readonly string[];
  /** Hosts that may resolve to loopback, private, link-local or other non-public addresses. */
  readonly allowPrivateHosts: readonly string[];
}

const MAX_URL_LENGTH = 2000;

/**
 * Addresses no event may go to unless the host is allowed: a URL an operator pastes must not turn
 * the worker into a way into the network it runs in (cloud metadata at 169.254.169.254, admin
 * ports on loopback, neighbours on private ranges). RFC 6890's special-purpose registries, with
 * their later entries (3fff::/20 for documentation, RFC 9637; 5f00::/16 for SRv6, RFC 9602).
 */
const NOT_PUBLIC = (() => {
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const)
    list.addSubnet(net, prefix, 'ipv4');
  // IPv4-mapped addresses (::ffff:0:0/96) BlockList judges by their IPv4 part. Every other range
  // that embeds an IPv4 address is refused whole, whatever it embeds: ::/96 holds the unspecified
  // and loopback addresses and the deprecated IPv4-compatible ones (RFC 4291 §2.5.5.1: ::127.0.0.1),
  // ::ffff:0:0:0/96 the IPv4-translated ones (RFC 2765 §2.1), 64:ff9b::/96 and 64:ff9b:1::/48 NAT64
  // (RFC 6052, RFC 8215), 2002::/16 6to4 (RFC 3056) and 2001::/32, within 2001::/23, Teredo.
  for (const [net, prefix] of [
    ['::', 96],
    ['::ffff:0:0:0', 96],
    ['64:ff9b::', 96],
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['2001::', 23],
    ['2001:db8::', 32],
    ['2002::', 16],
    ['3fff::', 20],
    ['5f00::', 16],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ] as const)
    list.addSubnet(net, prefix, 'ipv6');
  return list;
})();

/**
 * True for a globally reachable unicast address. Of the IPv6 spellings of an IPv4 address, only
 * one mapped from a public address (::ffff:8.8.8.8) is.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The URL's host as policies name it: lower case, without the brackets of an IPv6 literal and
 * without the trailing dot of a fully qualified name (`localhost.` is `localhost`).
 */
export function urlHost(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

export function mayUsePrivateAddresses(host: string, policy: WebhookUrlPolicy): boolean {
  return policy.allowPrivateHosts.includes(host.toLowerCase());
}

function refuse(detail: string): AppError {
  return new AppError('INVALID_REQUEST', { field: 'url', detail });
}

/**
 * An endpoint URL an operator may register: https (or http to an allowed host), no credentials in
 * it, and no address literal outside the public internet unless the host is allowed. Host names
 * are checked again against what they resolve to at every delivery.
 */
export function parseWebhookUrl(raw: string, policy: WebhookUrlPolicy): URL {
  if (raw.length > MAX_URL_LENGTH) throw refuse(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('not an absolute URL, e.g. https://hooks.example.com/rpa');
  }
  const host = urlHost(url);
  if (url.protocol === 'http:') {
    if (!policy.allowHttpHosts.includes(host))
      throw refuse(
        `events are sent over https only; http to ${host} needs WEBHOOK_ALLOW_HTTP_HOSTS to name it`,
      );
  } else if (url.protocol !== 'https:') {
    throw refuse('events are sent over https only');
  }
  if (url.username !== '' || url.password !== '')
    throw refuse('credentials in the URL are not accepted: receivers verify the signature instead');
  if (url.hash !== '') throw refuse('a URL with a #fragment is not accepted: it is never sent');
  if (isIP(host) !== 0 && !isPublicAddress(host) && !mayUsePrivateAddresses(host, policy))
    throw refuse(
      `${host} is not a public address; WEBHOOK_ALLOW_PRIVATE_HOSTS must name it to send events there`,
    );
  if (host === 'localhost' || host.endsWith('.localhost')) {
    if (!mayUsePrivateAddresses(host, policy))
      throw refuse(`${host} is loopback; WEBHOOK_ALLOW_PRIVATE_HOSTS must name it to send events there`);
  }
  return url;
}
