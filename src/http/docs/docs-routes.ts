import scalarApiReference from '@scalar/fastify-api-reference';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

const DOCS_PATH = '/docs';

/**
 * Everything the reference page loads comes from this server: its script is served under /docs,
 * it reads /openapi.json, and the browser refuses any other origin. Partners browse it from
 * networks that cannot reach third-party hosts, and a docs page that fetches fonts or scripts
 * elsewhere would tell those hosts who reads it. Inline script and style are allowed because the
 * page is initialised by an inline script and the bundle injects its stylesheet.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function pinToThisOrigin(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  done();
}

const LANDING_LINKS = {
  docs: DOCS_PATH,
  openapi: '/openapi.json',
  token: '/auth/v1/oauth2/token',
  metadata: '/.well-known/oauth-authorization-server',
};

const LANDING_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Reviews partner API</title>
  </head>
  <body>
    <h1>Reviews partner API</h1>
    <p>Token service (OAuth 2.0 client credentials), Response API (JSON:API) and Privacy API.</p>
    <ul>
      <li><a href="${LANDING_LINKS.docs}">API reference</a>: every operation, with examples</li>
      <li><a href="${LANDING_LINKS.openapi}">OpenAPI 3.1 document</a></li>
      <li><a href="${LANDING_LINKS.metadata}">OAuth authorization server metadata</a></li>
    </ul>
  </body>
</html>
`;

/**
 * `/` (a landing page for browsers, links as JSON for other clients) and `/docs`, an interactive
 * reference of /openapi.json rendered by Scalar from files this server serves itself.
 */
export function docsRoutes(): FastifyPluginAsync {
  return async (app) => {
    await app.register(scalarApiReference, {
      routePrefix: DOCS_PATH,
      hooks: { onRequest: pinToThisOrigin },
      configuration: {
        url: '/openapi.json',
        pageTitle: 'Reviews partner API reference',
        defaultOpenAllTags: true,
        // Offline: no fonts from Scalar's host, no telemetry, no links out to Scalar's services.
        withDefaultFonts: false,
        telemetry: false,
        hideClientButton: true,
        agent: { disabled: true },
        // Its links lead to Scalar's hosted services (share, deploy).
        showDeveloperTools: 'never',
      },
    });

    const hidden = { schema: { hide: true } };
    app.get('/', hidden, async (request, reply) => {
      reply.header('vary', 'accept');
      if ((request.headers.accept ?? '').includes('text/html')) {
        return reply
          .header('content-security-policy', CONTENT_SECURITY_POLICY)
          .type('text/html; charset=utf-8')
          .send(LANDING_PAGE);
      }
      return { name: 'Reviews partner API', links: LANDING_LINKS };
    });
    // Where people look for API docs first.
    app.get('/api-docs', hidden, async (_request, reply) => reply.redirect(`${DOCS_PATH}/`, 308));
  };
}
