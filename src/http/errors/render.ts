import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '../../errors.js';

/** Path of the request without its query string: the query may carry a passkey. */
export function requestPath(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? request.url : request.url.slice(0, q);
}

function applyHeaders(reply: FastifyReply, error: AppError): void {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
}

function publicDetail(error: AppError): string {
  // A 5xx never shows internals: its detail is the catalog title.
  return error.status >= 500 ? error.title : (error.detail ?? error.title);
}

/**
 * JSON:API error document (JSON:API 1.1 §7) that also keeps the public system's members
 * (httpCode, requestURI, and per error `field` and `message`), so clients written for either work.
 */
export function sendJsonApiError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
): FastifyReply {
  applyHeaders(reply, error);
  const message = publicDetail(error);
  const source = error.source && Object.values(error.source).some(Boolean) ? error.source : undefined;
  return reply
    .code(error.status)
    .type('application/vnd.api+json')
    .send({
      httpCode: error.status,
      requestURI: requestPath(request),
      message,
      errors: [
        {
          status: String(error.status),
          code: error.code,
          title: error.title,
          detail: message,
          ...(source ? { source } : {}),
          ...(error.field ? { field: error.field } : {}),
          message,
        },
      ],
    });
}

/** RFC 9457 problem details; `type` is a stable relative URI per catalog code. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  applyHeaders(reply, error);
  const detail = publicDetail(error);
  return reply
    .code(error.status)
    .type('application/problem+json')
    .send({
      type: `/problems/${error.slug}`,
      title: error.title,
      status: error.status,
      detail,
      instance: requestPath(request),
      code: error.code,
      ...(error.field ? { errors: [{ field: error.field, message: detail }] } : {}),
    });
}

/** RFC 6749 §5.2 error response, as used by the token and revocation endpoints. */
export function sendOAuthError(_request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  applyHeaders(reply, error);
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  return reply
    .code(error.status)
    .type('application/json')
    .send({ error: error.oauthError, error_description: publicDetail(error) });
}

export type ErrorRenderer = typeof sendProblem;
