import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { parseRequestHost } from '../../domain/environment.js';
import { AppError } from '../../errors.js';

/**
 * Picks the environment from the Host header (`stg.` prefix = staging) and the base of absolute
 * links. With an allow-list configured, other hosts get 421 (RFC 9110 §15.5.20).
 */
export function resolveSite(config: Config) {
  const allowed = config.allowedHosts ? new Set(config.allowedHosts) : null;
  return async function resolveSite(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const parsed = parseRequestHost(request.host);
    if (!parsed)
      throw new AppError('INVALID_REQUEST', {
        detail: 'the Host header is missing or malformed',
        source: { header: 'host' },
      });
    if (allowed && !allowed.has(parsed.baseHostname)) {
      throw new AppError('MISDIRECTED_REQUEST', {
        detail: `this server does not serve ${parsed.baseHostname}`,
      });
    }
    request.site = { ...parsed, baseUrl: `${config.publicScheme}://${parsed.host}` };
  };
}
