import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { routeTakesBody } from '../accept-json-bodies.js';

/**
 * Many HTTP clients and API tools send `Content-Type` on every request, GET and DELETE included.
 * A request carries a body only with Transfer-Encoding or a non-zero Content-Length (RFC 9112
 * §6.3); when it has none and its route takes no body, there is nothing to parse, so the media
 * type is dropped before Fastify would try (an empty JSON body is a parse error, an unknown type a
 * 415) and the request is served. A route that takes a body still answers an empty one with the
 * error of its parser.
 */
export function ignoreContentTypeWithoutBody(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const { headers } = request.raw;
  const length = headers['content-length'];
  if (
    headers['content-type'] !== undefined &&
    headers['transfer-encoding'] === undefined &&
    (length === undefined || /^\s*0+\s*$/.test(length)) &&
    !routeTakesBody(request)
  )
    delete headers['content-type'];
  done();
}
