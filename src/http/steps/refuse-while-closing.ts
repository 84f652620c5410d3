import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';

/**
 * Once the server is closing, a request that still arrives on an open keep-alive connection is
 * refused with 503 in the shape of its API (Fastify's own `return503OnClosing` answer has neither
 * that shape nor an X-Request-Id). Fastify marks such answers `Connection: close` itself, and
 * requests already being served finish normally.
 */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    if (closing)
      throw new AppError('SERVICE_UNAVAILABLE', {
        detail: 'the server is shutting down',
        headers: { 'retry-after': '1' },
      });
    done();
  });
}
