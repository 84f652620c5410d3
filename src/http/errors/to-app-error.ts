import type { FastifyError } from 'fastify';
import { AppError } from '../../errors.js';
import { databaseUnavailable } from '../../services/health/database-unavailable.js';

interface ValidationIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function validationToAppError(err: FastifyError & { validation: ValidationIssue[] }): AppError {
  const issue: ValidationIssue = err.validation[0] ?? {};
  const context = (err as { validationContext?: string }).validationContext ?? 'body';
  const missing = issue.keyword === 'required' ? String(issue.params?.missingProperty ?? '') : '';
  const extra =
    issue.keyword === 'additionalProperties' ? String(issue.params?.additionalProperty ?? '') : '';
  const path = (issue.instancePath ?? '').replace(/^\//, '').split('/').filter(Boolean);
  if (missing) path.push(missing);
  if (extra) path.push(extra);
  const field = path.join('.');
  const what = field || context;
  let detail = `${what} ${issue.message ?? 'is invalid'}`;
  if (missing) detail = `${what} is required`;
  if (extra) detail = `${what} is not allowed`;
  if (context === 'querystring') {
    return new AppError('INVALID_QUERY_PARAMETER', {
      field,
      detail,
      source: { parameter: field || undefined },
    });
  }
  if (context === 'params') {
    return new AppError('INVALID_PROPERTY_VALUE', {
      field,
      detail,
      source: { parameter: field || undefined },
    });
  }
  if (context === 'headers')
    return new AppError('INVALID_REQUEST', { field, detail, source: { header: field } });
  return new AppError(missing ? 'MISSING_PROPERTY' : 'INVALID_PROPERTY_VALUE', {
    field,
    detail,
    source: { pointer: `/${path.join('/')}` },
  });
}

/**
 * Maps anything thrown while serving a request onto the error catalog. A database that cannot
 * serve right now gives SERVICE_UNAVAILABLE (503, Retry-After); other unknown errors become
 * INTERNAL, whose rendering never includes the original message (the caller logs it).
 */
export function toAppError(err: unknown, route: { readonly bodyLimit?: number } = {}): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError;
  if (fe && Array.isArray((fe as { validation?: unknown }).validation)) {
    return validationToAppError(fe as FastifyError & { validation: ValidationIssue[] });
  }
  switch (fe?.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_JSON', { detail: 'the request body is not valid JSON' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', {
        detail: 'unsupported Content-Type',
        source: { header: 'content-type' },
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(
        'PAYLOAD_TOO_LARGE',
        route.bodyLimit === undefined
          ? {}
          : {
              detail: `the request body is larger than ${route.bodyLimit} bytes, the most this operation takes`,
            },
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('INVALID_REQUEST', { detail: 'Content-Length does not match the body' });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('URI_TOO_LONG', { detail: 'a segment of the request path is too long' });
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new AppError('INVALID_REQUEST', { detail: 'the request URL is malformed' });
  }
  if (fe instanceof SyntaxError && (fe as { statusCode?: number }).statusCode === 400) {
    return new AppError('INVALID_JSON', { detail: 'the request body is not valid JSON' });
  }
  const status = typeof fe?.statusCode === 'number' ? fe.statusCode : 500;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE');
  if (status >= 400 && status < 500)
    return new AppError('INVALID_REQUEST', { detail: 'the request is malformed' });
  return databaseUnavailable(err) ?? new AppError('INTERNAL', { cause: err });
}
