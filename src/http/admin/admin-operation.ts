import type { FastifyRequest, FastifySchema } from 'fastify';
import type { TSchema } from 'typebox';
import type { AdminScope } from '../../domain/admin-scope.js';
import type { ServiceDeps } from '../../services/deps.js';
import type { ApiDescription } from '../api-routes-setup.js';
import { Problem } from '../errors/error-schemas.js';
import { sendProblem } from '../errors/render.js';
import { KEY_REUSED, readIdempotentRequest } from '../idempotent-request.js';
import type { DocumentedStatus } from '../openapi/documented-answers.js';
import { ref } from '../openapi/schema-ref.js';
import type { Operation } from '../route-table.js';
import { type AdminAccess, authenticateAdmin } from './authenticate-admin.js';

/** An operation of the admin API: one of every API's operations, which needs an admin scope. */
export interface AdminOperation<R extends FastifySchema = FastifySchema> extends Operation<R> {
  readonly scope: AdminScope;
}

/** An admin operation as its *-admin-operations.ts writes it: what it needs, reads and answers, and why it fails. */
interface AdminOperationSpec<R extends FastifySchema> {
  readonly summary: string;
  readonly scope: AdminScope;
  readonly request: R;
  /** A create that takes Idempotency-Key: a retry with the same key and body answers the first answer again (admin-create.ts). */
  readonly idempotent?: true;
  /** Its success answer, in JSON; a null schema sends no body. */
  readonly answer: {
    readonly status: number;
    readonly schema: TSchema | null;
    readonly description?: string;
    readonly headers?: Readonly<Record<string, TSchema>>;
  };
  /** Why it sends each error status beyond those every admin operation may send. */
  readonly errors?: Partial<Record<DocumentedStatus, string>>;
}

/** Why a create (it takes Idempotency-Key: admin-create.ts) may fail besides its own reasons. */
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

/**
 * Admin operations of one tag, each named by its key (`operationId` is the key), completed with
 * what every admin operation has: the scope it needs in its description, the statuses every one may
 * send, and, for a create (it takes Idempotency-Key, and may answer again: admin-create.ts), theirs.
 */
export function adminOperations<T extends Record<string, AdminOperationSpec<FastifySchema>>>(
  tag: string,
  specs: T,
): { readonly [K in keyof T]: AdminOperation<T[K]['request']> } {
  const named = Object.entries(specs).map(([operationId, o]) => [operationId, complete(tag, operationId, o)]);
  return Object.fromEntries(named) as never;
}

function complete(tag: string, operationId: string, o: AdminOperationSpec<FastifySchema>): AdminOperation {
  const creates = o.idempotent === true;
  return {
    operationId,
    tag,
    summary: o.summary,
    description: `Needs the scope \`${o.scope}\`.`,
    scope: o.scope,
    request: o.request,
    ...(creates ? { idempotent: true } : {}),
    answer: {
      status: o.answer.status,
      mediaType: 'application/json',
      schema: o.answer.schema,
      ...(o.answer.description ? { description: o.answer.description } : {}),
      ...(o.answer.headers ? { headers: o.answer.headers } : {}),
    },
    errors: { ...(creates ? CREATE_ERRORS : {}), ...o.errors, ...ALWAYS },
    retryAfterOn: [429, 503],
  };
}

/**
 * The admin API: RFC 9457 problems, JSON bodies, and every route starting with authentication by
 * admin token with the scope its operation needs, before validation of its parts.
 */
export function adminApi(deps: ServiceDeps, access: AdminAccess): ApiDescription<AdminOperation> {
  return {
    render: sendProblem,
    bodyTypes: ['application/json'],
    untypedIsJson: true,
    steps: (op) => ({ onRequest: [authenticateAdmin(deps, access, op.scope)] }),
    errorAnswers: {
      mediaType: 'application/problem+json',
      schema: ref(Problem),
      challenge: 'bearer',
      otherClientErrors:
        '405 (method not allowed), 408 (request too slow), 413 (body too large), 415 (not JSON)',
    },
    readIdempotencyKey: readIdempotentRequest(deps, keyOwner),
    // OpenAPI 3.1 §4.8.30: for schemes other than OAuth 2.0, the list names roles: the scope.
    security: (op) => [{ adminToken: [op.scope] }],
  };
}

/**
 * An admin caller's keys: its own, sealed with the secret derived from its token, which the
 * database does not hold (docs/operations.md, Admin API).
 */
function keyOwner(request: FastifyRequest) {
  const caller = request.adminCaller;
  if (!caller) throw new Error('an admin route read its Idempotency-Key before authentication');
  return { scope: `admin:${caller.actor}`, secret: caller.answerSecret };
}
