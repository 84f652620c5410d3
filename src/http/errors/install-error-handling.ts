import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { type ErrorRenderer, requestPath } from './render.js';
import { toAppError } from './to-app-error.js';

/**
 * Gives one API (one encapsulated Fastify context) its error shape, for thrown errors and for
 * requests that match no route under its prefix: 405 with `Allow` when the resource is served for
 * other methods (RFC 9110 §15.5.6), 404 when it is not served at all.
 */
export function installErrorHandling(app: FastifyInstance, render: ErrorRenderer): void {
  app.setErrorHandler((err, request, reply) => {
    const error = toAppError(err, request.routeOptions);
    // Only what nobody expected, with its stack. A 503 is an answer the server meant to give: the
    // outage behind it is logged when it starts and ends (deps.outages), and each request's access
    // line keeps its status and code.
    if (error.code === 'INTERNAL') request.log.error({ err }, 'request failed');
    return render(request, reply, error);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = requestPath(request);
    const allow = app.allowedMethods.at(request.url).join(', ');
    return render(
      request,
      reply,
      allow
        ? new AppError('METHOD_NOT_ALLOWED', {
            detail: `${request.method} is not allowed at ${path}; allowed: ${allow}`,
            headers: { allow },
          })
        : new AppError('NOT_FOUND', { detail: `no resource at ${request.method} ${path}` }),
    );
  });
}
