import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import type { ErrorRenderer } from './render.js';
import { toAppError } from './to-app-error.js';

/**
 * Gives one API (one encapsulated Fastify context) its error shape, for thrown errors and for
 * paths that match no route under its prefix.
 */
export function installErrorHandling(app: FastifyInstance, render: ErrorRenderer): void {
  app.setErrorHandler((err, request, reply) => {
    const error = toAppError(err);
    if (error.status >= 500) request.log.error({ err }, 'request failed');
    return render(request, reply, error);
  });
  app.setNotFoundHandler((request, reply) =>
    render(
      request,
      reply,
      new AppError('NOT_FOUND', { detail: `no resource at ${request.method} ${request.url.split('?')[0]}` }),
    ),
  );
}
