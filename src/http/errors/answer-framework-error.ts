import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorShapeFor, sendIn } from './render.js';
import { toAppError } from './to-app-error.js';

/**
 * Fastify's `frameworkErrors`: URLs the router refuses before any route or API context exists
 * (malformed percent-encoding: 400; a path parameter over `maxParamLength`: 414). Fastify's own
 * answer echoes the whole URL, passkey included; this one answers in the shape of the API the
 * path names and shows the path only. No hook runs for these replies, so the headers every
 * answer carries (build-server.ts) are set here.
 */
export function answerFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('cache-control', 'no-store');
  sendIn(errorShapeFor(request.url))(request, reply, toAppError(err));
}
