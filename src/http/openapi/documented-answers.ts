import { type TSchema, Type } from 'typebox';

/**
 * The answers an operation documents in /openapi.json, with the header fields each one carries.
 * @fastify/swagger turns a response's `headers` map (a schema per field, its description lifted
 * into the Header Object) into OpenAPI 3.1 Header Objects.
 */

type HeaderMap = Record<string, TSchema>;

/** draft-ietf-httpapi-ratelimit-headers §3, §4: on every answer to a call charged to a passkey. */
export const RATE_LIMIT_HEADERS: HeaderMap = {
  RateLimit: Type.String({
    description:
      'Per policy (minute, day): requests still available (r) and seconds until the window ends (t)',
    examples: ['"minute";r=59;t=42, "day";r=9999;t=50000'],
  }),
  'RateLimit-Policy': Type.String({
    description: "The passkey's policies: quota (q) per window of w seconds",
    examples: ['"minute";q=60;w=60, "day";q=10000;w=86400'],
  }),
};

const RETRY_AFTER: HeaderMap = {
  'Retry-After': Type.Integer({
    minimum: 0,
    description: 'RFC 9110 §10.2.3: seconds to wait before trying again',
    examples: [1],
  }),
};

const BEARER_CHALLENGE: HeaderMap = {
  'WWW-Authenticate': Type.String({
    title: 'BearerChallenge',
    description: 'RFC 6750 §3: the Bearer challenge',
    examples: ['Bearer realm="api", error="invalid_token"'],
  }),
};

const BASIC_CHALLENGE: HeaderMap = {
  'WWW-Authenticate': Type.String({
    title: 'BasicChallenge',
    description: 'RFC 6749 §5.2: the client authenticates with HTTP Basic (or in the body)',
    examples: ['Basic realm="reviews-partner-api", charset="UTF-8"'],
  }),
};

/** RFC 9745 §2 and §3: every answer under a deprecated prefix. */
export const DEPRECATION_HEADERS: HeaderMap = {
  Deprecation: Type.String({
    description: 'RFC 9745: when this prefix was deprecated, as a structured-field date',
    examples: ['@1735689600'],
  }),
  Link: Type.String({
    description: 'RFC 8288: the same resource under the /response prefix (rel="successor-version")',
  }),
};

/** Statuses an API answers; each brings the header fields RFCs attach to it. */
export type DocumentedStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503;

export interface ErrorAnswers {
  /** The media type and body schema of the API's error answers. */
  readonly mediaType: string;
  readonly schema: TSchema;
  /** 401 challenges: Bearer on the resource APIs, Basic on the token service. */
  readonly challenge: 'bearer' | 'basic';
  /** Ranges covering what no route chooses: 408, 414, 421, 431 before routing, and 5xx. */
  readonly otherClientErrors: string;
}

/** Headers each status carries by itself (RFC 9110 §15.5.2, RFC 6585 §4, RFC 9110 §15.6.4). */
function headersOf(api: ErrorAnswers, status: DocumentedStatus, charged: boolean): HeaderMap {
  if (status === 401) return api.challenge === 'bearer' ? BEARER_CHALLENGE : BASIC_CHALLENGE;
  if (status === 429) return { ...RETRY_AFTER, ...(charged ? RATE_LIMIT_HEADERS : {}) };
  if (status === 503) return RETRY_AFTER;
  return {};
}

/**
 * The documented error answers of one operation: each status it can send with why, its body
 * schema and headers, plus 4XX and 5XX ranges for what no route decides. `charged` operations count
 * against a passkey, so their 429 (and every answer with `extraHeaders`) tells the allowance.
 */
export function errorAnswers(
  api: ErrorAnswers,
  statuses: Partial<Record<DocumentedStatus, string>>,
  options: { charged?: boolean; extraHeaders?: HeaderMap; retryAfterOn?: readonly DocumentedStatus[] } = {},
) {
  const answer = (description: string, headers: HeaderMap) => {
    const all = { ...headers, ...options.extraHeaders };
    return {
      description,
      ...(Object.keys(all).length > 0 ? { headers: all } : {}),
      content: { [api.mediaType]: { schema: api.schema } },
    };
  };
  const answers: Record<string, ReturnType<typeof answer>> = {};
  for (const [key, description] of Object.entries(statuses)) {
    const status = Number(key) as DocumentedStatus;
    const headers = headersOf(api, status, options.charged === true);
    answers[key] = answer(
      description,
      options.retryAfterOn?.includes(status) ? { ...headers, ...RETRY_AFTER } : headers,
    );
  }
  // Fastify picks a serializer by `4xx`/`5xx`; the document shows them as 4XX/5XX.
  answers['4xx'] = answer(api.otherClientErrors, {});
  answers['5xx'] = answer('Server error; never shows internals', {});
  return answers;
}

/** A success answer with its body (or none) and the headers every answer of the operation has. */
export function successAnswer(
  description: string,
  body: { mediaType: string; schema: TSchema } | null,
  headers: HeaderMap = {},
  /** Other media types the same answer may come in (content negotiation), with their schemas. */
  alternatives: Readonly<Record<string, TSchema>> = {},
) {
  const content = body
    ? {
        [body.mediaType]: { schema: body.schema },
        ...Object.fromEntries(Object.entries(alternatives).map(([type, schema]) => [type, { schema }])),
      }
    : null;
  return {
    description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(content ? { content } : { type: 'null' }),
  };
}
