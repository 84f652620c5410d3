import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Config } from '../../config.js';
import { parseRequestHost, type RequestHost } from '../../domain/environment.js';
import { AppError } from '../../errors.js';
import type { Site } from '../request-context.js';

/** Sites of the hosts seen last; a client sending ever new Host values only empties it. */
const SITE_CACHE_SIZE = 64;

function isAddress(host: RequestHost): boolean {
  return host.environment === 'production' && isIP(host.baseHostname.replace(/^\[(.*)\]$/, '$1')) !== 0;
}

/**
 * Picks the environment from the Host header (`stg.` prefix = staging) and the base of absolute
 * links. With an allow-list configured, other hosts get 421 (RFC 9110 §15.5.20), except IP
 * addresses on load-balancer probes (request-context.ts, `probe`). A request with more than one
 * Host line never gets here (refuse-repeated-host.ts).
 */
export function resolveSite(config: Config) {
  const allowed = config.allowedHosts ? new Set(config.allowedHosts) : null;
  // The same few Host values arrive on every request; parsing one and building its base URL once
  // keeps this step to a lookup (the site is never changed after it is set).
  const sites = new Map<string, Site | null>();
  const siteOf = (hostHeader: string | undefined): Site | null => {
    if (hostHeader === undefined) return null;
    let site = sites.get(hostHeader);
    if (site === undefined) {
      const parsed = parseRequestHost(hostHeader);
      site = parsed && Object.freeze({ ...parsed, baseUrl: `${config.publicScheme}://${parsed.host}` });
      if (sites.size >= SITE_CACHE_SIZE) sites.clear();
      sites.set(hostHeader, site);
    }
    return site;
  };
  // Synchronous, with `done`: no promise per request (a thrown error reaches Fastify all the same).
  return function resolveSite(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    const parsed = siteOf(request.host);
    if (!parsed)
      throw new AppError('INVALID_REQUEST', {
        detail: 'the Host header is missing or malformed',
        source: { header: 'host' },
      });
    if (
      allowed &&
      !allowed.has(parsed.baseHostname) &&
      !(request.routeOptions.config.probe === true && isAddress(parsed))
    ) {
      throw new AppError('MISDIRECTED_REQUEST', {
        detail: `this server does not serve ${parsed.baseHostname}`,
      });
    }
    request.site = parsed;
    done();
  };
}
