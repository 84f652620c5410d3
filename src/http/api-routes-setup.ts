import type {
  FastifyInstance,
  onRequestHookHandler,
  preHandlerHookHandler,
  preValidationHookHandler,
} from 'fastify';
import type { TSchema } from 'typebox';
import type { PasskeyApi } from '../domain/passkey.js';
import { acceptJsonBodies } from './accept-json-bodies.js';
import { installErrorHandling } from './errors/install-error-handling.js';
import type { ErrorRenderer } from './errors/render.js';
import type { HttpDeps } from './http-deps.js';
import {
  type DocumentedStatus,
  type ErrorAnswers,
  errorAnswers,
  successAnswer,
} from './openapi/documented-answers.js';
import { ref } from './openapi/schema-ref.js';
import { authenticateBearer } from './steps/authenticate-bearer.js';
import { authenticatePasskey } from './steps/authenticate-passkey.js';
import { chargePasskey } from './steps/charge-passkey.js';

/** One API called with a bearer token and a passkey: the Response API or the Privacy API. */
export interface ApiDescription {
  readonly passkeyApi: PasskeyApi;
  readonly render: ErrorRenderer;
  /** The media types its request bodies may have; with `untypedIsJson`, also none. */
  readonly bodyTypes: readonly string[];
  readonly untypedIsJson?: boolean;
  /** The media type and schema of its error answers. */
  readonly errorBody: { readonly mediaType: string; readonly schema: TSchema };
  /** Header fields of every answer (the passkey's allowance; a deprecation). */
  readonly everyAnswer: Readonly<Record<string, TSchema>>;
  /** Steps before authentication. */
  readonly firstSteps?: readonly onRequestHookHandler[];
}

/** The steps of one route beyond those every route of its API starts with, by hook. */
export interface RouteSteps {
  readonly onRequest?: readonly onRequestHookHandler[];
  readonly preValidation?: readonly preValidationHookHandler[];
  readonly preHandler?: readonly preHandlerHookHandler[];
}

/** How an operation is named in /openapi.json. */
export interface OperationName {
  readonly operationId: string;
  readonly tags: string[];
  readonly deprecated?: boolean;
}

/** What an operation reads, answers and documents. */
export interface Operation<R extends object> {
  readonly summary: string;
  /** Its request parts (params, querystring, body), validated before the handler runs. */
  readonly request: R;
  /** Its success answer; a null schema sends no body. */
  readonly answer: {
    readonly status: number;
    readonly mediaType: string;
    readonly schema: TSchema | null;
    readonly description?: string;
    /** Headers beside those of every answer of its API. */
    readonly headers?: Readonly<Record<string, TSchema>>;
    /** Other media types of the same answer, chosen by the request (Accept, a query parameter). */
    readonly alternatives?: Readonly<Record<string, TSchema>>;
  };
  /** Why it sends each error status. */
  readonly errors: Partial<Record<DocumentedStatus, string>>;
  /** Error statuses that also say when to try again. */
  readonly retryAfterOn?: readonly DocumentedStatus[];
}

/** Why every operation of such an API may answer 400, 401, 403, 429 and 503. */
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

/**
 * What the Response and Privacy APIs set up alike in their (encapsulated) context: their error
 * shape, JSON bodies, `Cache-Control: no-store` on every answer, since they carry one tenant's
 * data and no shared cache may keep it (RFC 9111 §5.2.2.5), and the steps every route starts
 * with. Returns the builder of its routes' options.
 */
export function apiRoutesSetup(app: FastifyInstance, deps: HttpDeps, api: ApiDescription) {
  installErrorHandling(app, api.render);
  acceptJsonBodies(app, api.bodyTypes, { untypedIsJson: api.untypedIsJson === true });
  app.addHook('onSend', (_request, reply, _payload, done) => {
    reply.header('cache-control', 'no-store');
    done();
  });
  const errorShape: ErrorAnswers = {
    ...api.errorBody,
    challenge: 'bearer',
    otherClientErrors: OTHER_CLIENT_ERRORS,
  };
  // Authentication before validation, so a request without a token gets 401 first; charging
  // after it, so a bad token or passkey never consumes anyone's allowance.
  const onRequest = [
    ...(api.firstSteps ?? []),
    authenticateBearer(deps),
    authenticatePasskey(deps, api.passkeyApi),
    chargePasskey(deps, api.passkeyApi),
  ];
  /**
   * The options of one route: the steps every route starts with, then its own `steps` (added
   * after those, hook by hook, never instead of them), and its schema, which validates the request and documents the operation in /openapi.json.
   */
  return <O extends Operation<object>>(name: OperationName, op: O, steps: RouteSteps) => ({
    onRequest: [...onRequest, ...(steps.onRequest ?? [])],
    ...(steps.preValidation ? { preValidation: [...steps.preValidation] } : {}),
    ...(steps.preHandler ? { preHandler: [...steps.preHandler] } : {}),
    schema: {
      operationId: name.operationId,
      summary: op.summary,
      tags: name.tags,
      ...(name.deprecated ? { deprecated: true } : {}),
      // The passkey is the operation's required `passkey` query parameter (see openapi-definition.ts).
      security: [{ bearer: [] }],
      ...(op.request as O['request']),
      ...('body' in op.request ? { consumes: api.bodyTypes } : {}),
      response: {
        [op.answer.status]: successAnswer(
          op.answer.description ?? 'Success',
          op.answer.schema ? { mediaType: op.answer.mediaType, schema: ref(op.answer.schema) } : null,
          { ...api.everyAnswer, ...op.answer.headers },
          op.answer.alternatives,
        ),
        ...errorAnswers(errorShape, op.errors, {
          charged: true,
          extraHeaders: api.everyAnswer,
          ...(op.retryAfterOn ? { retryAfterOn: op.retryAfterOn } : {}),
        }),
      },
    },
  });
}
