import type { RouteOptions } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';

/** How the server's router matches paths; the route index below matches them the same way. */
export const ROUTER_OPTIONS = { ignoreTrailingSlash: true, maxParamLength: 500 } as const;

export interface AllowedMethods {
  /** Records a route as the server registers it (Fastify's `onRoute`). */
  add(route: RouteOptions): void;
  /** The methods some route serves at a request target, sorted; none when no route matches it. */
  at(url: string): readonly string[];
}

const NOTHING: readonly string[] = [];

/**
 * The methods each resource is served for, from the server's own routes, so that a method a
 * resource does not support is answered 405 with the `Allow` it does support (RFC 9110 §15.5.6)
 * rather than 404. A router of the same kind and options as the server's holds every route, so a
 * target matches here exactly when it would match there. Asked only when the server's router
 * found no route for a request: never on a request that is served.
 */
export function createAllowedMethods(): AllowedMethods {
  const router = FindMyWay(ROUTER_OPTIONS);
  const methods = new Set<HTTPMethod>();
  const answered = () => undefined;
  return {
    add(route) {
      for (const method of [route.method].flat() as HTTPMethod[]) {
        router.on(method, route.url, answered);
        methods.add(method);
      }
    },
    at(url) {
      let path: string;
      try {
        path = FindMyWay.sanitizeUrlPath(url);
      } catch {
        // A path the router cannot decode matches no route, under any method.
        return NOTHING;
      }
      return [...methods].filter((method) => router.find(method, path) !== null).sort();
    },
  };
}
