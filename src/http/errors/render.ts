import type { FastifyReply, FastifyRequest } from 'fastify';
import { maskSecretSegments, maskSecretWords } from '../../domain/mask-secret-segments.js';
import type { AppError } from '../../errors.js';

/** Path of a request target without its query string: the query may carry a passkey. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** Path of the request without its query string: the query may carry a passkey. */
export function requestPath(request: FastifyRequest): string {
  return pathOf(request.url);
}

// An error echoes the path it answers, but not an over-long one in full (a 414 is about its length).
const SHOWN_PATH_LENGTH = 512;

/**
 * The path an error names (`instance`, `requestURI`), its secrets masked as log lines mask them:
 * an error answer is logged by proxies and clients, and a secret put where an id belongs is
 * refused without being repeated (docs/cli.md). Masked before it is cut, so no part of one shows.
 */
function shownPath(path: string): string {
  const masked = maskSecretSegments(path);
  return masked.length > SHOWN_PATH_LENGTH ? `${masked.slice(0, SHOWN_PATH_LENGTH)}…` : masked;
}

function publicDetail(error: AppError): string {
  // A 5xx never shows internals: its detail is the catalog title, unless written for the caller.
  if (error.status >= 500 && !error.expose) return error.title;
  // A detail may quote the path or an id the caller sent: a secret there is masked as in `instance`.
  return error.detail === undefined ? error.title : maskSecretWords(error.detail);
}

/**
 * One API's error answer, apart from the transport: the same shape is sent through Fastify by the
 * API's error handler, and written on the raw socket for errors Node's parser meets before any
 * route (answer-client-error.ts).
 */
export interface ErrorShape {
  readonly mediaType: string;
  /** Headers every error in this shape carries, besides the error's own (Retry-After, ...). */
  readonly headers: Readonly<Record<string, string>>;
  /** `path` is the request path without its query, or null when the request line was unreadable. */
  body(error: AppError, path: string | null): Record<string, unknown>;
}

/**
 * JSON:API error document (JSON:API 1.1 §7) that also keeps the public system's members
 * (httpCode, requestURI, and per error `field` and `message`), so clients written for either work.
 */
const JSON_API_ERRORS: ErrorShape = {
  mediaType: 'application/vnd.api+json',
  headers: {},
  body(error, path) {
    const message = publicDetail(error);
    const source = error.source && Object.values(error.source).some(Boolean) ? error.source : undefined;
    return {
      httpCode: error.status,
      requestURI: shownPath(path ?? ''),
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
    };
  },
};

/**
 * RFC 9457 problem details; `type` is a stable relative URI per catalog code. The error's
 * extension members (§3.2), if any, follow the standard ones.
 */
const PROBLEM_DETAILS: ErrorShape = {
  mediaType: 'application/problem+json',
  headers: {},
  body(error, path) {
    const detail = publicDetail(error);
    return {
      type: `/problems/${error.slug}`,
      title: error.title,
      status: error.status,
      detail,
      ...(path === null ? {} : { instance: shownPath(path) }),
      code: error.code,
      ...(error.field ? { errors: [{ field: error.field, message: detail }] } : {}),
      ...error.extensions,
    };
  },
};

/** RFC 6749 §5.2 error response, as used by the token and revocation endpoints. */
const OAUTH_ERRORS: ErrorShape = {
  mediaType: 'application/json',
  // RFC 6749 §5.1 asks this of token answers; errors of the endpoint get it as well.
  headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
  body(error) {
    return { error: error.oauthError, error_description: publicDetail(error) };
  },
};

/**
 * The shape of the API a request target falls under, by the prefixes build-server.ts registers;
 * RFC 9457 for everything else (metadata, health, unknown paths, unreadable request lines).
 */
export function errorShapeFor(url: string | null): ErrorShape {
  const path = url === null ? '' : pathOf(url);
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (under('/auth/v1')) return OAUTH_ERRORS;
  if (under('/response/v1') || under('/contentmanagement/v1')) return JSON_API_ERRORS;
  return PROBLEM_DETAILS;
}

/** Sends an AppError through Fastify in one API's shape. */
export function sendIn(shape: ErrorShape) {
  return (request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply => {
    request.errorCode = error.code;
    for (const [name, value] of Object.entries(shape.headers)) reply.header(name, value);
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    return reply
      .code(error.status)
      .type(shape.mediaType)
      .send(shape.body(error, requestPath(request)));
  };
}

export const sendJsonApiError = sendIn(JSON_API_ERRORS);
export const sendProblem = sendIn(PROBLEM_DETAILS);
export const sendOAuthError = sendIn(OAUTH_ERRORS);

export type ErrorRenderer = typeof sendProblem;
