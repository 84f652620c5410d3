import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { parseRequestHost, type RequestHost } from '../../domain/environment.js';
import { AppError } from '../../errors.js';

/** Node keeps the first of several Host lines in `headers`; `rawHeaders` has them all. */
function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === 'host') count++;
  return count;
}

function isAddress(host: RequestHost): boolean {
  return host.environment === 'production' && isIP(host.baseHostname.replace(/^\[(.*)\]$/, '$1')) !== 0;
}

/**
 * Picks the environment from the Host header (`stg.` prefix = staging) and the base of absolute
 * links. With an allow-list configured, other hosts get 421 (RFC 9110 §15.5.20), except IP
 * addresses on load-balancer probes (request-context.ts, `probe`).
 */
export function resolveSite(config: Config) {
  const allowed = config.allowedHosts ? new Set(config.allowedHosts) : null;
  return async function resolveSite(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    // RFC 9112 §3.2: more than one Host line is a 400; which one would name the site is anyone's guess.
    if (hostLines(request.raw.rawHeaders) > 1)
      throw new AppError('INVALID_REQUEST', {
        detail: 'the Host header must be sent once',
        source: { header: 'host' },
      });
    const parsed = parseRequestHost(request.host);
    if (!parsed)
      throw new AppError('INVALID_REQUEST', {
        detail: 'the Host header is missing or malformed',
        source: { header: 'host' },
      });
    const probeByAddress = request.routeOptions.config.probe === true && isAddress(parsed);
    if (allowed && !allowed.has(parsed.baseHostname) && !probeByAddress) {
      throw new AppError('MISDIRECTED_REQUEST', {
        detail: `this server does not serve ${parsed.baseHostname}`,
      });
    }
    request.site = { ...parsed, baseUrl: `${config.publicScheme}://${parsed.host}` };
  };
}
