import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { TSchema } from 'typebox';
import type { PasskeyApi } from '../domain/passkey.js';
import { acceptJsonBodies } from './accept-json-bodies.js';
import { actingApplication } from './acting-application.js';
import { installErrorHandling } from './errors/install-error-handling.js';
import type { ErrorRenderer } from './errors/render.js';
import type { HttpDeps } from './http-deps.js';
import { idempotencyScope, readIdempotentRequest } from './idempotent-request.js';
import type { Operation, RouteTableApi } from './route-table.js';
import { authenticateBearer } from './steps/authenticate-bearer.js';
import { authenticatePasskey } from './steps/authenticate-passkey.js';
import { chargePasskey } from './steps/charge-passkey.js';

/** One API: its error shape and request bodies, and what every route of its table starts with. */
export interface ApiDescription<O extends Operation = Operation> extends RouteTableApi<O> {
  readonly render: ErrorRenderer;
  /** The media types its request bodies may have; with `untypedIsJson`, also none. */
  readonly bodyTypes: readonly string[];
  readonly untypedIsJson?: boolean;
}

/**
 * What every API (Response, Privacy, admin) sets up alike in its (encapsulated) context: its error
 * shape, JSON bodies and `Cache-Control: no-store` on every answer, since they carry one tenant's
 * data or secrets and no shared cache may keep them (RFC 9111 §5.2.2.5). Its route table is then
 * registered with `registerRouteTable` (route-table.ts), each route starting with the API's steps.
 */
export function apiRoutesSetup<O extends Operation>(app: FastifyInstance, api: ApiDescription<O>): void {
  installErrorHandling(app, api.render);
  acceptJsonBodies(app, api.bodyTypes, { untypedIsJson: api.untypedIsJson === true });
  app.addHook('onSend', (_request, reply, _payload, done) => {
    reply.header('cache-control', 'no-store');
    done();
  });
}

/** Why every operation of an API called with a bearer token and a passkey may answer 400, 401, 403, 429 and 503. */
export function alwaysAnswered(apiName: string) {
  return {
    400: 'The passkey query parameter is missing or malformed',
    401: 'No bearer token, or one that is malformed, expired or revoked',
    403: `Developer Inactive: the passkey is unknown, inactive, or not a ${apiName} passkey of this application`,
    429: 'The passkey is over its rate limit (per minute) or its daily quota',
    503: 'The database or the rate-limit store cannot serve right now, or the server is shutting down',
  } as const;
}

const OTHER_CLIENT_ERRORS =
  '405 (method not allowed), 408 (request too slow), 414 (path too long), 421 (host not in ' +
  'ALLOWED_HOSTS), 431 (header section too large)';

/** An API called with a bearer token and a passkey: the Response API or the Privacy API. */
export interface ResourceApiOptions extends Pick<ApiDescription, 'render' | 'bodyTypes' | 'untypedIsJson'> {
  readonly passkeyApi: PasskeyApi;
  /** The media type and schema of its error answers. */
  readonly errorBody: { readonly mediaType: string; readonly schema: TSchema };
  /** Header fields of every answer (the passkey's allowance; a deprecation). */
  readonly everyAnswer: Readonly<Record<string, TSchema>>;
  /** Steps before authentication. */
  readonly firstSteps?: readonly onRequestHookHandler[];
  readonly rename?: ApiDescription['rename'];
}

/**
 * The description of a resource API. Every route starts with the bearer token, the passkey and
 * the charge: authentication before validation, so a request without a token gets 401 first;
 * charging after it, so a bad token or passkey never consumes anyone's allowance.
 */
export function resourceApi(deps: HttpDeps, options: ResourceApiOptions): ApiDescription {
  const steps = {
    onRequest: [
      ...(options.firstSteps ?? []),
      authenticateBearer(deps),
      authenticatePasskey(deps, options.passkeyApi),
      chargePasskey(deps, options.passkeyApi),
    ],
  };
  return {
    render: options.render,
    bodyTypes: options.bodyTypes,
    ...(options.untypedIsJson ? { untypedIsJson: true } : {}),
    everyAnswer: options.everyAnswer,
    ...(options.rename ? { rename: options.rename } : {}),
    steps: () => steps,
    // An application's keys, per API and environment.
    readIdempotencyKey: readIdempotentRequest(deps, (request) =>
      idempotencyScope(options.passkeyApi, actingApplication(request)),
    ),
    errorAnswers: { ...options.errorBody, challenge: 'bearer', otherClientErrors: OTHER_CLIENT_ERRORS },
    // The passkey is the operation's required `passkey` query parameter (see openapi-definition.ts).
    security: () => [{ bearer: [] }],
  };
}
