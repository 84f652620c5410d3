/**
 * One catalog of error codes. Services and domain code throw AppError with a code from here;
 * only the HTTP layer turns an AppError into a response body, in the shape of the API it serves
 * (JSON:API errors, RFC 9457 problem details, or RFC 6749 §5.2 OAuth errors).
 */

interface ErrorSpec {
  readonly status: number;
  readonly title: string;
  /** RFC 6749 §5.2 / RFC 6750 §3.1 error code used when the token service renders it. */
  readonly oauth?: string;
}

const errorCatalog = {
  INVALID_REQUEST: { status: 400, title: 'Invalid request', oauth: 'invalid_request' },
  INVALID_PROPERTY_VALUE: { status: 400, title: 'Invalid property value', oauth: 'invalid_request' },
  MISSING_PROPERTY: { status: 400, title: 'Missing property', oauth: 'invalid_request' },
  INVALID_JSON: { status: 400, title: 'Malformed JSON body', oauth: 'invalid_request' },
  INVALID_QUERY_PARAMETER: { status: 400, title: 'Invalid query parameter', oauth: 'invalid_request' },
  INVALID_HEADER: { status: 400, title: 'Invalid header field', oauth: 'invalid_request' },
  DUPLICATE_RESPONSE: { status: 400, title: 'Duplicate response', oauth: 'invalid_request' },
  UNKNOWN_REVIEW: { status: 400, title: 'Unknown review', oauth: 'invalid_request' },
  UNKNOWN_CLIENT_NAME: { status: 400, title: 'Client name not allowed', oauth: 'invalid_request' },
  UNSUPPORTED_GRANT_TYPE: { status: 400, title: 'Unsupported grant type', oauth: 'unsupported_grant_type' },
  INVALID_SCOPE: { status: 400, title: 'Invalid scope', oauth: 'invalid_scope' },
  INVALID_CLIENT: { status: 401, title: 'Client authentication failed', oauth: 'invalid_client' },
  // RFC 6749 §5.2: an authenticated client that may not use the grant (a revoked application).
  UNAUTHORIZED_CLIENT: { status: 400, title: 'Client not authorized', oauth: 'unauthorized_client' },
  UNAUTHORIZED: {
    status: 401,
    title: 'Credentials are required to access this resource.',
    oauth: 'invalid_token',
  },
  INVALID_TOKEN: { status: 401, title: 'The access token is invalid or has expired', oauth: 'invalid_token' },
  DEVELOPER_INACTIVE: { status: 403, title: 'Developer Inactive', oauth: 'unauthorized_client' },
  FORBIDDEN: { status: 403, title: 'Forbidden', oauth: 'unauthorized_client' },
  INSUFFICIENT_SCOPE: { status: 403, title: 'Insufficient scope', oauth: 'insufficient_scope' },
  NOT_FOUND: { status: 404, title: 'Not found' },
  RESPONSE_NOT_FOUND: { status: 404, title: 'Client Response Id does not exist' },
  METHOD_NOT_ALLOWED: { status: 405, title: 'Method not allowed' },
  NOT_ACCEPTABLE: { status: 406, title: 'Not acceptable' },
  REQUEST_TIMEOUT: { status: 408, title: 'Request timeout', oauth: 'invalid_request' },
  CONFLICT: { status: 409, title: 'Conflict' },
  PENDING_REQUEST_EXISTS: {
    status: 409,
    title: 'A request for this end user is already pending',
  },
  EXPORT_NOT_READY: { status: 409, title: 'The export is not ready yet' },
  // A configuration file's plan (services/tenancy-config): computed at a revision another change
  // has since moved, or one that conflicts with the environment and so cannot be applied.
  TENANCY_REVISION_CHANGED: { status: 409, title: 'The tenancy changed since the plan' },
  TENANCY_PLAN_REFUSED: { status: 409, title: 'The plan cannot be applied' },
  GONE: { status: 410, title: 'Gone' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    title: 'Idempotency-Key already used for another request',
    oauth: 'invalid_request',
  },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Request body too large', oauth: 'invalid_request' },
  URI_TOO_LONG: { status: 414, title: 'Request URI too long', oauth: 'invalid_request' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported media type', oauth: 'invalid_request' },
  MISDIRECTED_REQUEST: { status: 421, title: 'Misdirected request' },
  HEADERS_TOO_LARGE: { status: 431, title: 'Request header fields too large', oauth: 'invalid_request' },
  RATE_LIMITED: { status: 429, title: 'Rate limit exceeded', oauth: 'slow_down' },
  QUOTA_EXCEEDED: { status: 429, title: 'Quota exceeded', oauth: 'slow_down' },
  TOO_MANY_FAILED_ATTEMPTS: {
    status: 429,
    title: 'Too many failed authentication attempts',
    oauth: 'slow_down',
  },
  INTERNAL: { status: 500, title: 'Internal server error', oauth: 'server_error' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'Service unavailable', oauth: 'temporarily_unavailable' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof errorCatalog;

/**
 * Retry-After of a 503 answered because a dependency (the database, Redis) cannot serve: about
 * what a restart or a failover takes, and what a readiness probe waits between two asks.
 */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

export interface AppErrorOptions {
  /** Human-readable explanation specific to this occurrence. Never contains secrets or identifiers. */
  detail?: string;
  /** The offending input member, e.g. "attributes.response" or "emailAddress". */
  field?: string;
  /** Where the offending input was: body pointer or query parameter. */
  source?: { pointer?: string; parameter?: string; header?: string };
  /** Extra response headers (Retry-After, WWW-Authenticate, ...). */
  headers?: Record<string, string>;
  /**
   * Show the detail even on a 5xx, whose detail is otherwise its title (like http-errors'
   * `expose`): only for a detail written for the caller from what the server knows, never one
   * taken from a failure.
   */
  expose?: boolean;
  /** RFC 9457 §3.2 extension members of a problem document: more of this occurrence, for the caller. */
  extensions?: Readonly<Record<string, unknown>>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly field: string | undefined;
  readonly source: AppErrorOptions['source'];
  readonly headers: Record<string, string>;
  readonly expose: boolean;
  readonly extensions: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    const spec: ErrorSpec = errorCatalog[code];
    super(options.detail ?? spec.title, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = spec.status;
    this.title = spec.title;
    this.detail = options.detail;
    this.field = options.field;
    this.source = options.source;
    this.headers = options.headers ?? {};
    this.expose = options.expose === true;
    this.extensions = options.extensions ?? {};
  }

  get oauthError(): string {
    return (errorCatalog[this.code] as ErrorSpec).oauth ?? 'invalid_request';
  }

  /** Slug used in problem `type` URIs: stable, derived from the code. */
  get slug(): string {
    return this.code.toLowerCase().replaceAll('_', '-');
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
