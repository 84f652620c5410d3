import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

type Done = (err: Error | null, body?: unknown) => void;

/** Whether the route serving `request` reads a body at all. */
export function routeTakesBody(request: FastifyRequest): boolean {
  return (request.routeOptions.schema as { body?: unknown } | undefined)?.body !== undefined;
}

/**
 * Request bodies of one API are JSON, as any of `mediaTypes`; any other media type is 415, never
 * parsed as text. A route that takes no body is served without one whatever its Content-Type says,
 * also when the body is framed but empty (`Transfer-Encoding: chunked` with only the last chunk):
 * many tools label every request (steps/ignore-content-type-without-body.ts handles the unframed
 * ones before parsing).
 */
export function acceptJsonBodies(app: FastifyInstance, mediaTypes: readonly string[]): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser([...mediaTypes], { parseAs: 'string' }, (request, body, done: Done) => {
    if (body === '' && !routeTakesBody(request)) return done(null, undefined);
    return parseJson(request, body as string, done);
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done: Done) => {
    if (body === '' && !routeTakesBody(request)) return done(null, undefined);
    return done(
      new AppError('UNSUPPORTED_MEDIA_TYPE', {
        detail: 'unsupported Content-Type',
        source: { header: 'content-type' },
      }),
    );
  });
}
