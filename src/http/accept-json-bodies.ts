import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../errors.js';

type Done = (err: Error | null, body?: unknown) => void;

const ZERO = /^\s*0+\s*$/;

/**
 * Whether a request carries a body: it does with Transfer-Encoding, or with a Content-Length
 * above zero (RFC 9112 §6.3). Content-Length is a decimal number (RFC 9110 §8.6), so `00` is zero.
 * Fastify's own test reads only `0` as zero; the catch-all parser below answers what it lets by.
 */
export function hasBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && !ZERO.test(length);
}

/** Whether the route serving `request` reads a body at all. */
function routeTakesBody(request: FastifyRequest): boolean {
  return (request.routeOptions.schema as { body?: unknown } | undefined)?.body !== undefined;
}

/**
 * Many HTTP clients and API tools send `Content-Type` on every request, GET and DELETE included.
 * When such a request has no body and its route takes none, there is nothing to parse, so the
 * media type is dropped before Fastify would try (an empty JSON body is a parse error, an unknown
 * or malformed type a 415) and the request is served. A route that takes a body still answers an
 * empty one with the error of its parser. Server-wide, before any route's steps.
 */
export function ignoreContentTypeWithoutBody(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const { headers } = request.raw;
  if (headers['content-type'] !== undefined && !hasBody(headers) && !routeTakesBody(request))
    delete headers['content-type'];
  done();
}

/**
 * Request bodies of one API are JSON, as any of `mediaTypes`; any other media type is 415, never
 * parsed as text. A route that takes no body is served without one whatever its Content-Type says,
 * also when the body is framed but empty (`Transfer-Encoding: chunked` with only the last chunk).
 * With `untypedIsJson`, a body sent without Content-Type is read as JSON (docs/interface.md §4.3:
 * "Content-Type defaults to application/json"). A request without Content-Type or body is served
 * as one with `Content-Length: 0`, whichever zero it wrote.
 */
export function acceptJsonBodies(
  app: FastifyInstance,
  mediaTypes: readonly string[],
  options: { untypedIsJson?: boolean } = {},
): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const untypedIsJson = options.untypedIsJson === true;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([...mediaTypes], { parseAs: 'string' }, (request, body, done: Done) => {
    if (body === '' && !routeTakesBody(request)) return done(null, undefined);
    return parseJson(request, body as string, done);
  });
  // Also the parser of a request without Content-Type that Fastify judged to have a body.
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done: Done) => {
    const { headers } = request.raw;
    const untyped = headers['content-type'] === undefined;
    if (body === '' && (!routeTakesBody(request) || (untyped && !hasBody(headers))))
      return done(null, undefined);
    if (untyped && untypedIsJson) return parseJson(request, body as string, done);
    return done(
      new AppError('UNSUPPORTED_MEDIA_TYPE', {
        detail: 'unsupported Content-Type',
        source: { header: 'content-type' },
      }),
    );
  });
}
