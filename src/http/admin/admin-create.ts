import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { readIdempotencyKey, requestFingerprint } from '../../domain/idempotency-key.js';
import type { ServiceDeps } from '../../services/deps.js';
import { type IdempotentAnswer, runIdempotently } from '../../services/idempotency/run-idempotently.js';
import { requestPath } from '../errors/render.js';
import { callerDeps } from './caller-deps.js';

/** Idempotency-Key, accepted by every create (domain/idempotency-key.ts). */
export const IDEMPOTENCY_HEADERS = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Makes the create safe to retry: the same key and body within 24 hours answer the first result again',
    }),
  ),
});

/**
 * Answers a create, at most once per Idempotency-Key of the caller: a retry with the same key and
 * body gets the first answer again (with `Idempotent-Replayed: true`) and creates nothing.
 * `fingerprinted` stands for the body in the stored fingerprint when the body must not be kept
 * even as a plain digest (an end user's identifiers: their keyed hashes instead).
 */
export async function answerCreate(
  deps: ServiceDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  create: (deps: ServiceDeps) => Promise<IdempotentAnswer>,
  fingerprinted: unknown = request.body,
): Promise<FastifyReply> {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' ? readIdempotencyKey(header) : undefined;
  const caller = callerDeps(deps, request);
  const answer = await runIdempotently(
    caller,
    {
      scope: `admin:${caller.actor}`,
      key,
      fingerprint: requestFingerprint(request.method, requestPath(request), fingerprinted),
      callerSecret: request.adminCaller?.answerSecret ?? '',
    },
    create,
  );
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(answer.status).send(answer.body);
}
