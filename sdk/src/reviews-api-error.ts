/**
 * An answer of the API that is not a success, with what the API says about it. The three APIs
 * answer errors in their own shapes (a JSON:API error document on the Response API, RFC 9457
 * problem details on the Privacy API, RFC 6749 §5.2 on the token service); `code` is the stable
 * code each of them carries.
 */
export class ReviewsApiError extends Error {
  override readonly name = 'ReviewsApiError';

  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** Stable error code: RESPONSE_NOT_FOUND, PENDING_REQUEST_EXISTS, invalid_client, ... */
    readonly code: string,
    /** What the API said about this occurrence. */
    readonly detail: string,
    /** `X-Request-Id` of the answer, to quote to the API's operators. */
    readonly requestId: string | undefined,
    /** Seconds the API asked to wait before trying again (429, 503, an export not ready). */
    readonly retryAfterSeconds: number | undefined,
    /** The parsed error body. */
    readonly body: unknown,
  ) {
    super(`${status} ${code}: ${detail}`);
  }

  static fromAnswer(response: Response, body: unknown, now: number): ReviewsApiError {
    const b = (body ?? {}) as {
      errors?: { code?: string; detail?: string }[];
      code?: string;
      detail?: string;
      error?: string;
      error_description?: string;
    };
    const first = Array.isArray(b.errors) ? b.errors[0] : undefined;
    return new ReviewsApiError(
      response.status,
      first?.code ?? b.code ?? b.error ?? `HTTP_${response.status}`,
      first?.detail ?? b.detail ?? b.error_description ?? response.statusText,
      response.headers.get('x-request-id') ?? undefined,
      retryAfterSeconds(response.headers.get('retry-after'), now),
      body,
    );
  }
}

/** RFC 9110 §10.2.3: a number of seconds, or an HTTP date. */
export function retryAfterSeconds(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The body of an answer, parsed when it is JSON of any flavour (problem+json, vnd.api+json). */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  return /json/i.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
}
