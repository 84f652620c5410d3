import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { InstanceState } from '../services/health/instance-state.js';
import { reportDatabaseOutage } from '../services/health/report-database-outage.js';
import { ignoreContentTypeWithoutBody } from './accept-json-bodies.js';
import { authRoutes } from './auth/auth-routes.js';
import { metadataRoutes } from './auth/metadata-routes.js';
import { coalesceAnswers } from './coalesce-answers.js';
import { deferredRequestLogger } from './deferred-request-logger.js';
import { docsRoutes } from './docs/docs-routes.js';
import { installErrorHandling } from './errors/install-error-handling.js';
import { sendProblem } from './errors/render.js';
import { healthRoutes } from './health-routes.js';
import type { HttpDeps } from './http-deps.js';
import { observeResponse } from './observe-response.js';
import { COMPONENT_SCHEMAS } from './openapi/component-schemas.js';
import { openApiDefinition } from './openapi/openapi-definition.js';
import { shareHeaders } from './openapi/share-headers.js';
import { privacyRoutes } from './privacy/privacy-routes.js';
import { proxyTrust } from './proxy-trust.js';
import './request-context.js';
import { createLazySerializerFactory } from './lazy-serializer-factory.js';
import { responseRoutes } from './response/response-routes.js';
import { installAllowedMethods, NAMED_SCHEMA_REFS, serverOptions } from './server-options.js';
import { refuseNulCharacters } from './steps/refuse-nul-characters.js';
import { refuseRepeatedHost } from './steps/refuse-repeated-host.js';
import { refuseWhileClosing } from './steps/refuse-while-closing.js';
import { resolveSite } from './steps/resolve-site.js';
import { shedOverload } from './steps/shed-overload.js';
import { traceRequests } from './trace-requests.js';
import { createValidatorFactory } from './validator-factory.js';

/** Requests validated as validator-factory.ts says; answers serialized as each is first needed. */
function schemaCompilers() {
  return { buildValidator: createValidatorFactory(), buildSerializer: createLazySerializerFactory() };
}

export interface BuildServerOptions {
  /** Where the instance is in its life, for /readyz: draining once SIGTERM arrived. */
  readonly instance?: InstanceState;
  /** The listener it answers on, opened before it was built (build-front-server.ts). */
  readonly serverFactory?: (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server;
}

/**
 * Builds the application without listening, so tests (app.inject) and `rpa serve` share it.
 */
export async function buildServer(
  deps: HttpDeps,
  options: BuildServerOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    ...serverOptions(deps),
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    trustProxy: proxyTrust(deps.config.trustProxy),
    // Its line per request has the caller's ids and the error code (observe-response.ts).
    childLoggerFactory: deferredRequestLogger,
    schemaController: { compilersFactory: schemaCompilers() },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installAllowedMethods(app);
  app.decorateRequest('site', null as never);
  app.decorateRequest('principal', null);
  app.decorateRequest('passkey', null);
  app.decorateRequest('errorCode', null);
  // First of the hooks, so the request's span covers every other and is active in them.
  traceRequests(app, deps.tracer);
  refuseWhileClosing(app);
  await shedOverload(app, deps);
  app.addHook('onResponse', observeResponse(deps));
  app.addHook('onError', (_request, _reply, err, done) => {
    deps.metrics.failed(err);
    reportDatabaseOutage(deps, err);
    done();
  });
  app.addHook('onRequest', refuseRepeatedHost);
  app.addHook('onRequest', resolveSite(deps.config));
  app.addHook('onRequest', ignoreContentTypeWithoutBody);
  app.addHook('preValidation', refuseNulCharacters);
  app.addHook('onSend', (request, reply, _payload, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    // Answered before its body arrived (a 401 from authentication, say): the rest of the body
    // would still be read, or time out into a second answer nobody asked for, so the connection
    // ends with this one (RFC 9112 §9.6). Only a real socket has `complete`.
    if (request.raw.complete === false) reply.header('connection', 'close');
    done();
  });
  // After the step above, so whether the body had arrived is judged when the answer was made.
  coalesceAnswers(app);

  installErrorHandling(app, sendProblem);

  for (const schema of COMPONENT_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    openapi: openApiDefinition(deps.config),
    refResolver: NAMED_SCHEMA_REFS,
    transformObject: (documentObject) =>
      'openapiObject' in documentObject
        ? shareHeaders(documentObject.openapiObject)
        : documentObject.swaggerObject,
  });

  await app.register(healthRoutes(deps, options.instance ?? null));
  await app.register(authRoutes(deps), { prefix: '/auth/v1' });
  await app.register(metadataRoutes(deps));
  await app.register(responseRoutes(deps), { prefix: '/response/v1' });
  await app.register(responseRoutes(deps, { deprecated: true }), { prefix: '/contentmanagement/v1' });
  await app.register(privacyRoutes(deps), { prefix: '/privacy/v1' });
  await app.register(docsRoutes());

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
