import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { Type } from 'typebox';
import { readIdempotencyKey, requestFingerprint } from '../domain/idempotency-key.js';
import type { ServiceDeps } from '../services/deps.js';
import type { IdempotentRequest } from '../services/idempotency/run-idempotently.js';

/** `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header), taken by every idempotent route. */
export const IDEMPOTENCY_HEADERS = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Makes the create safe to retry: the same key and body within 24 hours answer the first result again, creating nothing; another body is 422',
    }),
  ),
});

/** Why an idempotent route answers 422, as its OpenAPI description says. */
export const KEY_REUSED = 'The Idempotency-Key was used with another request in the last 24 hours';

/** Marks an answer given again for a retried Idempotency-Key, instead of a new create. */
export function markReplayed(reply: FastifyReply, replayed: boolean): void {
  if (replayed) reply.header('idempotent-replayed', 'true');
}

/** On an answer given again for a retried Idempotency-Key, instead of a new create. */
export const REPLAYED_HEADER = {
  'Idempotent-Replayed': Type.String({
    description: 'true when this is the first answer again, for a retry with the same Idempotency-Key',
    examples: ['true'],
  }),
};

/**
 * Whose keys a request's are (`scope`: one caller's), and what only that caller holds, which
 * seals what is kept for them (`secret`, domain/idempotency-key.ts).
 */
export interface KeyOwner {
  readonly scope: string;
  readonly secret: string;
}

const idempotentRequests = new WeakMap<FastifyRequest, IdempotentRequest>();

/**
 * The step of every route whose operation says `idempotent: true`, after validation: reads the
 * Idempotency-Key (400 when malformed), whose keys it is among (`ownerOf`) and the request's
 * fingerprint (method, route and body, keyed-hashed), for the handler to pass to its service
 * (idempotencyOf; services/idempotency/run-idempotently.ts).
 */
export function readIdempotentRequest(
  deps: Pick<ServiceDeps, 'identifierKey'>,
  ownerOf: (request: FastifyRequest) => KeyOwner,
): preHandlerHookHandler {
  return (request, _reply, done) => {
    try {
      idempotentRequests.set(request, idempotentRequest(deps, request, ownerOf(request)));
      done();
    } catch (err) {
      done(err as Error);
    }
  };
}

/** The Idempotency-Key of a request to an idempotent route, as its step read it. */
export function idempotencyOf(request: FastifyRequest): IdempotentRequest {
  const read = idempotentRequests.get(request);
  if (!read) throw new Error(`${request.routeOptions.url} is not marked idempotent: true`);
  return read;
}

function idempotentRequest(
  deps: Pick<ServiceDeps, 'identifierKey'>,
  request: FastifyRequest,
  owner: KeyOwner,
): IdempotentRequest {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' ? readIdempotencyKey(header) : undefined;
  // Without a key nothing is compared: no need to hash the body of every create.
  if (key === undefined) return { scope: owner.scope, key, fingerprint: '', callerSecret: owner.secret };
  // The route within its API and its decoded parameters, not the URL as sent: a retry that adds a
  // trailing slash, encodes a parameter differently or names the API by its deprecated prefix
  // (/contentmanagement for /response) is the same request. `server.prefix` is the prefix the
  // route's API was registered under.
  const route = request.routeOptions.url?.slice(request.server.prefix.length);
  const target = JSON.stringify([route, request.params]);
  return {
    scope: owner.scope,
    key,
    fingerprint: requestFingerprint(deps.identifierKey, request.method, target, request.body),
    callerSecret: owner.secret,
  };
}

/**
 * The keys of one application's calls to one API in one environment. What is kept for them is an
 * id only (the privacy request, the response), answered again from the record, so no secret of the
 * caller's is needed to seal it.
 */
export function idempotencyScope(
  api: 'privacy' | 'response',
  acting: { readonly environment: string; readonly applicationId: string },
): KeyOwner {
  return { scope: `${api}:${acting.environment}:${acting.applicationId}`, secret: '' };
}
