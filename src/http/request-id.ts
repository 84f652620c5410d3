import { randomUUID } from 'node:crypto';
import type { RawRequestDefaultExpression } from 'fastify';
import { mentionsSecretCredential } from '../domain/credentials.js';

/**
 * The id of a request: the caller's `X-Request-Id` kept for tracing, unless it is not an id (or
 * is a credential pasted there): it is logged on every line of the request and sent back.
 */
export function requestIdOf(req: RawRequestDefaultExpression): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' &&
    /^[A-Za-z0-9._-]{1,128}$/.test(given) &&
    !mentionsSecretCredential(given)
    ? given
    : randomUUID();
}
