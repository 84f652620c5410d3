import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../../errors.js';

/** Node keeps the first of several Host lines in `headers`; `rawHeaders` has them all. */
function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}

/**
 * RFC 9112 §3.2: a request with more than one Host line MUST be answered 400; which one would name
 * the site is anyone's guess. A step of both listeners, on the public one before the site is
 * resolved from the Host header. Synchronous, with `done`: no promise per request.
 */
export function refuseRepeatedHost(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (hostLines(request.raw.rawHeaders) > 1)
    throw new AppError('INVALID_REQUEST', {
      detail: 'the Host header must be sent once',
      source: { header: 'host' },
    });
  done();
}
