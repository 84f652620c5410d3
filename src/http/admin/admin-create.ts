import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceDeps } from '../../services/deps.js';
import { runIdempotently } from '../../services/idempotency/run-idempotently.js';
import { idempotencyOf, markReplayed } from '../idempotent-request.js';
import { callerDeps } from './caller-deps.js';

/**
 * Answers a create of an operation marked `idempotent: true`, at most once per Idempotency-Key of
 * the caller: a retry with the same key and body gets the first answer again, as it was (with
 * `Idempotent-Replayed: true`), and creates nothing. The answer is kept whole, since it may show a
 * secret only once (a client secret, a passkey); it is sealed with the caller's secret. Every
 * create answers 201 Created with the body `create` returns; the status is kept with the body.
 */
export async function answerCreate(
  deps: ServiceDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  create: (deps: ServiceDeps) => Promise<unknown>,
): Promise<FastifyReply> {
  const { value, replayed } = await runIdempotently(
    callerDeps(deps, request),
    idempotencyOf(request),
    async (d) => ({ status: 201, body: await create(d) }),
  );
  markReplayed(reply, replayed);
  return reply.code(value.status).send(value.body);
}
