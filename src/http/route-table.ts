import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyInstance,
  FastifySchema,
  onRequestHookHandler,
  preHandlerHookHandler,
  preValidationHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { TSchema } from 'typebox';
import { IDEMPOTENCY_HEADERS, KEY_REUSED, REPLAYED_HEADER } from './idempotent-request.js';
import {
  type DocumentedStatus,
  type ErrorAnswers,
  errorAnswers,
  successAnswer,
} from './openapi/documented-answers.js';
import { ref } from './openapi/schema-ref.js';
import type { RouteReply, RouteRequest } from './route-request.js';

type HeaderMap = Readonly<Record<string, TSchema>>;
type Server = RawServerDefault;
type Req = RawRequestDefaultExpression;
type Rep = RawReplyDefaultExpression;
type Generic = RouteGenericInterface;
// Steps see the request as its handler does: typed by the route's TypeBox schemas.
type Typed = TypeBoxTypeProvider;

/** What an operation reads, answers and documents: one entry of an API's `*-operations.ts`. */
export interface Operation<R extends FastifySchema = FastifySchema> {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** Its request parts (params, querystring, headers, body), validated before the handler runs. */
  readonly request: R;
  /**
   * A create that takes Idempotency-Key: a retry with the same key and body is answered with what
   * the first created, and creates nothing (services/idempotency/run-idempotently.ts).
   */
  readonly idempotent?: true;
  /** Its success answer; a null schema sends no body. */
  readonly answer: {
    readonly status: number;
    readonly mediaType: string;
    readonly schema: TSchema | null;
    readonly description?: string;
    /** Headers beside those of every answer of its API. */
    readonly headers?: HeaderMap;
    /** Other media types of the same answer, chosen by the request (Accept, a query parameter). */
    readonly alternatives?: Readonly<Record<string, TSchema>>;
  };
  /** Why it sends each error status. */
  readonly errors: Partial<Record<DocumentedStatus, string>>;
  /** Error statuses that also say when to try again. */
  readonly retryAfterOn?: readonly DocumentedStatus[];
  /** It counts against a passkey: its 429 tells the allowance, where its API's answers do not always. */
  readonly charged?: boolean;
}

/** Operations of one tag, each named by its key: `operationId` is the key. */
export function taggedOperations<T extends Record<string, Omit<Operation, 'operationId' | 'tag'>>>(
  tag: string,
  operations: T,
): { readonly [K in keyof T]: T[K] & { readonly operationId: K & string; readonly tag: string } } {
  const named = Object.entries(operations).map(([operationId, op]) => [
    operationId,
    { operationId, tag, ...op },
  ]);
  return Object.fromEntries(named) as never;
}

/**
 * Steps of a route, by the hook they run in: each a small function (steps/ or beside its API) that
 * completes the request, refuses it by throwing an AppError, or sets what the handler reads.
 */
interface Steps<S extends FastifySchema = FastifySchema> {
  readonly onRequest?: readonly onRequestHookHandler<Server, Req, Rep, Generic, unknown, S, Typed>[];
  readonly preValidation?: readonly preValidationHookHandler<Server, Req, Rep, Generic, unknown, S, Typed>[];
  readonly preHandler?: readonly preHandlerHookHandler<Server, Req, Rep, Generic, unknown, S, Typed>[];
}

/**
 * What one route adds to what its API gives every route: its own steps, run after the API's in
 * each hook, never instead of them (so no route can drop its API's authentication). A route's
 * other properties, such as whether a retried Idempotency-Key is answered again, belong here too.
 */
export interface RouteOwn<S extends FastifySchema = FastifySchema> {
  readonly steps?: Steps<S>;
  /** The largest body it takes, when not BODY_LIMIT_BYTES (a whole configuration file). */
  readonly bodyLimit?: number;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One line of a route table. */
export interface RouteRow<O extends Operation = Operation> {
  readonly method: Method;
  /** The path under its API's prefix, written out (never built), so it can be searched for. */
  readonly path: string;
  readonly operation: O;
  readonly own: RouteOwn;
  readonly handler: (request: never, reply: never) => unknown;
}

/** A route table's line, its handler's request and reply typed by the operation's request parts. */
export function route<O extends Operation>(
  method: Method,
  path: string,
  operation: O,
  own: RouteOwn<O['request']>,
  handler: (request: RouteRequest<O['request']>, reply: RouteReply<O['request']>) => unknown,
): RouteRow<O> {
  return { method, path, operation, own: own as RouteOwn, handler };
}

/** How an operation is named in the OpenAPI document, when its API names it otherwise. */
interface OperationName {
  readonly operationId: string;
  readonly tags: string[];
  readonly deprecated?: boolean;
}

/** What one API gives every route of its table: the steps they start with, and their documentation. */
export interface RouteTableApi<O extends Operation = Operation> {
  /** The steps every route starts with, authentication first; the admin API's need the operation's scope. */
  steps(operation: O): Steps;
  /** The media type, schema and 401 challenge of its error answers, and what no route decides. */
  readonly errorAnswers: ErrorAnswers;
  /** Header fields of every answer (the passkey's allowance; a deprecation). */
  readonly everyAnswer?: HeaderMap;
  /** The media types its request bodies may have. */
  readonly bodyTypes?: readonly string[];
  /** The step that reads an idempotent operation's Idempotency-Key: whose keys they are differs by API. */
  readonly readIdempotencyKey?: preHandlerHookHandler;
  /** The security requirement of an operation in the OpenAPI document. */
  security(operation: O): Array<Record<string, string[]>>;
  /** Another name for its operations (a deprecated prefix), instead of their id and tag. */
  rename?(operation: O): OperationName;
}

/**
 * A route's steps: its API's first, then its own, hook by hook, then, on an idempotent operation,
 * reading its Idempotency-Key (after validation, so a malformed key is its only 400 left).
 */
function composeSteps(api: Steps, own: Steps = {}, last: Steps = {}) {
  const composed: { [H in keyof Steps]: NonNullable<Steps[H]>[number][] } = {};
  for (const hook of ['onRequest', 'preValidation', 'preHandler'] as const) {
    const steps = [...(api[hook] ?? []), ...(own[hook] ?? []), ...(last[hook] ?? [])];
    if (steps.length > 0) Object.assign(composed, { [hook]: steps });
  }
  return composed;
}

/** A schema registered under its `$id` is referred to (openapi/schema-ref.ts); one without is written out. */
function shared(schema: TSchema): TSchema {
  return typeof (schema as { $id?: unknown }).$id === 'string' ? ref(schema) : schema;
}

/** The route's schema: its request parts to validate, and its entry in the OpenAPI document. */
function operationSchema<O extends Operation>(api: RouteTableApi<O>, op: O): FastifySchema {
  const name = api.rename?.(op) ?? { operationId: op.operationId, tags: [op.tag] };
  const { answer } = op;
  return {
    operationId: name.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: name.tags,
    ...(name.deprecated ? { deprecated: true } : {}),
    security: api.security(op),
    ...op.request,
    ...(op.idempotent ? { headers: IDEMPOTENCY_HEADERS } : {}),
    ...('body' in op.request && api.bodyTypes ? { consumes: [...api.bodyTypes] } : {}),
    response: {
      [answer.status]: successAnswer(
        answer.description ?? 'Success',
        answer.schema ? { mediaType: answer.mediaType, schema: shared(answer.schema) } : null,
        { ...api.everyAnswer, ...(op.idempotent ? REPLAYED_HEADER : {}), ...answer.headers },
        answer.alternatives,
      ),
      ...errorAnswers(api.errorAnswers, op.idempotent ? { ...op.errors, 422: KEY_REUSED } : op.errors, {
        ...(api.everyAnswer ? { extraHeaders: api.everyAnswer } : {}),
        ...(op.retryAfterOn ? { retryAfterOn: op.retryAfterOn } : {}),
        ...(op.charged ? { charged: true } : {}),
      }),
    },
  };
}

/** Registers every line of a route table, in its order (the order of the OpenAPI document's paths). */
export function registerRouteTable<O extends Operation>(
  app: FastifyInstance,
  api: RouteTableApi<O>,
  rows: readonly RouteRow<O>[],
): void {
  for (const row of rows) {
    const readKey = row.operation.idempotent ? api.readIdempotencyKey : undefined;
    if (row.operation.idempotent && !readKey)
      throw new Error(`${row.path}: its API reads no Idempotency-Key`);
    app.route({
      method: row.method,
      url: row.path,
      ...composeSteps(api.steps(row.operation), row.own.steps, readKey ? { preHandler: [readKey] } : {}),
      ...(row.own.bodyLimit === undefined ? {} : { bodyLimit: row.own.bodyLimit }),
      schema: operationSchema(api, row.operation),
      handler: row.handler as RouteHandlerMethod,
    });
  }
}
