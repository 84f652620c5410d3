import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { requestPath } from '../errors/render.js';

/** Characters allowed in a URI path (RFC 3986 §3.3); anything else is percent-encoded as UTF-8. */
const NOT_PATH_CHAR = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g;

function encodePath(path: string): string {
  return path.replace(NOT_PATH_CHAR, (c) =>
    [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/**
 * Marks answers of a deprecated path prefix: `Deprecation` with the date it was deprecated
 * (RFC 9745 §2.1, a structured-field date `@<epoch seconds>`) and a `Link` to the same resource
 * under its successor prefix (RFC 9745 §3, RFC 8288; rel "successor-version" from RFC 5829). No
 * `Sunset`: the prefix stays supported until further notice (docs/interface.md §9).
 */
export function announceDeprecation(options: { since: Date; prefix: string; successorPrefix: string }) {
  const deprecation = `@${Math.floor(options.since.getTime() / 1000)}`;
  return function announceDeprecation(
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    // The path only: the query string carries the passkey, which never goes into a header.
    const path = requestPath(request);
    const successor = path.startsWith(options.prefix)
      ? options.successorPrefix + path.slice(options.prefix.length)
      : options.successorPrefix;
    reply.header('deprecation', deprecation);
    reply.header('link', `<${request.site.baseUrl}${encodePath(successor)}>; rel="successor-version"`);
    done();
  };
}
