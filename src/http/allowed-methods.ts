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

/**
 * The methods each resource is served for, from the server's own routes, so that a method a
 * resource does not support is answered 405 with the `Allow` it does support (RFC 9110 §15.5.6)
 * rather than 404. A router of the same kind and options as the server's holds every route and is
 * given the request target as the server's router was (it splits off the query and decodes the
 * path once, itself), so a target matches here exactly when it would match there. Asked only when
 * the server's router found no route for a request: never on a request that is served.
 */
export function createAllowedMethods(): AllowedMethods {
  const router = FindMyWay(ROUTER_OPTIONS);
  const methods = new Set<HTTPMethod>();
  const answered = () => undefined;
  return {
    add(route) {
      for (const method of [route.method].flat() as HTTPMethod[]) {
        try {
          router.on(method, route.url, answered);
        } catch {
          // A route the server's router refuses too (declared twice, say): it throws its own error
          // for it once this hook returns, and that error is the one to see.
        }
        methods.add(method);
      }
    },
    at(url) {
      // A target the router cannot decode is null here, as it matches no route there.
      return [...methods].filter((method) => router.find(method, url) !== null).sort();
    },
  };
}
