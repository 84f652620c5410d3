import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { AdminScope } from '../../domain/admin-scope.js';
import type { ServiceDeps } from '../../services/deps.js';
import { Problem } from '../errors/error-schemas.js';
import {
  IDEMPOTENCY_HEADERS,
  KEY_REUSED,
  REPLAYED_HEADER,
  readIdempotentRequest,
} from '../idempotent-request.js';
import { type DocumentedStatus, errorAnswers, successAnswer } from '../openapi/documented-answers.js';
import { ref } from '../openapi/schema-ref.js';
import { type AdminAccess, authenticateAdmin } from './authenticate-admin.js';

/** One operation of the admin API: what it needs, reads and answers, and why it fails. */
export interface AdminOperation<R extends object> {
  readonly operationId: string;
  readonly tag: string;
  readonly summary: string;
  readonly scope: AdminScope;
  /** Its request parts (params, querystring, body), validated before the handler runs. */
  readonly request: R;
  /**
   * A create that takes Idempotency-Key: a retry with the same key and body answers the first
   * answer again (admin-create.ts).
   */
  readonly idempotent?: true;
  /** Its success answer; a null schema sends no body. */
  readonly answer: {
    readonly status: number;
    readonly schema: TSchema | null;
    readonly description?: string;
    readonly headers?: Readonly<Record<string, TSchema>>;
  };
  /** Why it sends each error status beyond those every admin operation may send. */
  readonly errors?: Partial<Record<DocumentedStatus, string>>;
}

/** An operation as written in a route table, its types checked there. */
export const adminOperation = <R extends object>(o: AdminOperation<R>) => o;

/** Why an idempotent create (admin-create.ts) may fail besides its own reasons. */
export const CREATE_ERRORS = {
  400: 'The body or the Idempotency-Key is invalid',
  422: KEY_REUSED,
} as const;

const ALWAYS = {
  401: 'No admin token, or one that is unknown, revoked or expired',
  403: 'The admin token lacks the scope this operation needs (WWW-Authenticate names it)',
  429: 'Too many failed authentications from this address; Retry-After says when to try again',
  503: 'The database cannot serve right now, or the server is shutting down',
} as const;

const ERROR_SHAPE = {
  mediaType: 'application/problem+json',
  schema: ref(Problem),
  challenge: 'bearer',
  otherClientErrors: '405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON)',
} as const;

/**
 * The builder of admin routes' options: authentication with the operation's scope first, then
 * validation of its parts, and its entry in the admin listener's OpenAPI document.
 */
export function adminRouteOptions(deps: ServiceDeps, access: AdminAccess) {
  return <R extends object>(op: AdminOperation<R>) => {
    const creates = op.idempotent === true;
    return {
      onRequest: [authenticateAdmin(deps, access, op.scope)],
      ...(creates ? { preHandler: [readIdempotentRequest(deps, keyOwner)] } : {}),
      schema: {
        operationId: op.operationId,
        summary: op.summary,
        description: `Needs the scope \`${op.scope}\`.`,
        tags: [op.tag],
        // OpenAPI 3.1 §4.8.30: for schemes other than OAuth 2.0, the list names roles: the scope.
        security: [{ adminToken: [op.scope] }],
        ...(op.request as R),
        ...(creates ? { headers: IDEMPOTENCY_HEADERS } : {}),
        response: {
          [op.answer.status]: successAnswer(
            op.answer.description ?? 'Success',
            op.answer.schema ? { mediaType: 'application/json', schema: ref(op.answer.schema) } : null,
            { ...op.answer.headers, ...(creates ? REPLAYED_HEADER : {}) },
          ),
          ...errorAnswers(
            ERROR_SHAPE,
            { ...(creates ? CREATE_ERRORS : {}), ...op.errors, ...ALWAYS },
            { retryAfterOn: [429, 503] },
          ),
        },
      },
    };
  };
}

export type AdminRouteOptions = ReturnType<typeof adminRouteOptions>;

/**
 * An admin caller's keys: its own, sealed with the secret derived from its token, which the
 * database does not hold (docs/operations.md, Admin API).
 */
function keyOwner(request: FastifyRequest) {
  const caller = request.adminCaller;
  if (!caller) throw new Error('an admin route read its Idempotency-Key before authentication');
  return { scope: `admin:${caller.actor}`, secret: caller.answerSecret };
}
