import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceDeps } from '../../services/deps.js';
import { type IdempotentAnswer, runIdempotently } from '../../services/idempotency/run-idempotently.js';
import { idempotentRequest, markReplayed } from '../idempotent-request.js';
import { callerDeps } from './caller-deps.js';

/**
 * Answers a create, at most once per Idempotency-Key of the caller: a retry with the same key and
 * body gets the first answer again (with `Idempotent-Replayed: true`) and creates nothing.
 */
export async function answerCreate(
  deps: ServiceDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  create: (deps: ServiceDeps) => Promise<IdempotentAnswer>,
): Promise<FastifyReply> {
  const caller = callerDeps(deps, request);
  const answer = await runIdempotently(
    caller,
    idempotentRequest(deps, request, {
      scope: `admin:${caller.actor}`,
      secret: request.adminCaller?.answerSecret ?? '',
    }),
    create,
  );
  markReplayed(reply, answer.replayed);
  return reply.code(answer.status).send(answer.body);
}
