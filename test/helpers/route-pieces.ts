import type { FastifyInstance } from 'fastify';

/** The text of every node of an application's route tree (`printRoutes`), without the tree's drawing or methods. */
export function routePieces(app: FastifyInstance): string[] {
  return app
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/^[\s│├└─]+/, '').replace(/ \([A-Z, ]+\)$/, ''));
}
