import { redactUrl } from '../domain/redact-url.js';
import type { ErrorCode } from '../errors.js';

/** The line's message, which tells the public listener's lines from the admin listener's. */
export type AccessMessage = 'request completed' | 'admin request completed';

/** What the access line reads of a request: FastifyRequest's own fields. */
export interface AccessRequest {
  readonly id: string;
  readonly method: string;
  /** The request target as sent; the line holds it masked (domain/redact-url.ts). */
  readonly url: string;
  readonly host: string | undefined;
  /** The caller's address, as the listener's proxy trust reads it. */
  readonly ip: string | undefined;
  /** The catalog code of an error answer. */
  readonly errorCode: ErrorCode | null;
  /** Set when the request is traced, null otherwise. */
  readonly traceId: string | null;
}

/** What the listener knows of the answer: its route, status and duration, and who called. */
export interface AccessAnswer {
  /** The route template; undefined when no route matched. */
  readonly route: string | undefined;
  readonly status: number;
  /** The duration in milliseconds (Fastify's `reply.elapsedTime`). */
  readonly ms: number;
  /** The public listener's caller. */
  readonly applicationId: string | undefined;
  readonly passkeyId: string | undefined;
  /** The admin listener's caller (`admin-token:<id>`). */
  readonly actor: string | undefined;
}

/**
 * Text a JSON string holds as it is: printable ASCII but the quote and the backslash (RFC 8259 §7).
 * Anything else is written by JSON.stringify, which escapes control characters and lone
 * surrogates (a lone one is no character: UTF-8 would make it U+FFFD), with U+2028 and U+2029
 * escaped as well: valid JSON, but line ends to readers that split on Unicode's (Python's
 * `str.splitlines`). A positive class of a few ranges is the quickest test V8 runs on ASCII.
 */
const PLAIN = /^[ !#-[\]-~]*$/;
const LINE_SEPARATORS = /[\u2028\u2029]/g;

function quote(text: string): string {
  if (PLAIN.test(text)) return `"${text}"`;
  return JSON.stringify(text).replace(LINE_SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

/** A member whose value the server made from a fixed alphabet, written as it is. */
const made = (name: string, value: string | undefined) =>
  value === undefined ? '' : `,"${name}":"${value}"`;
/** A member whose value a caller may have chosen, escaped when it needs to be. */
const given = (name: string, value: string | undefined) =>
  value === undefined ? '' : `,"${name}":${quote(value)}`;

/**
 * One access line: `head` (level, time and the logger's bindings, as pino writes them), then the
 * fields pino wrote for it before, in its order, an absent one left out as pino leaves out
 * undefined, and `traceId` when the request is traced. Built by concatenation: pino's generic
 * path looks up serializers and stringifiers for each key and escapes every string, about four
 * times the cost (bench/access-line-micro.ts, docs/performance.md). What a caller may have chosen
 * (method, URL, Host, the address X-Forwarded-For named, an operator's name, a trace id) is tested
 * for characters to escape; what the server made is not, since its alphabet has none: the request
 * id (request-id.ts keeps a caller's only when made of `[A-Za-z0-9._-]`), the route template, ids
 * (UUIDs), catalog codes and the message (the tests of request ids and of both listeners' route
 * templates hold them to it).
 */
export function accessLine(
  head: string,
  msg: AccessMessage,
  request: AccessRequest,
  answer: AccessAnswer,
): string {
  const { status, ms } = answer;
  return (
    `${head},"reqId":"${request.id}","req":{"method":${quote(request.method)}` +
    `,"url":${quote(redactUrl(request.url))}${given('host', request.host)}${given('remoteAddress', request.ip)}}` +
    `${made('route', answer.route)},"status":${status}` +
    // pino writes a number that is not finite as null; the duration is rounded to the microsecond.
    `,"ms":${Number.isFinite(ms) ? Math.round(ms * 1000) / 1000 : null}` +
    `${made('applicationId', answer.applicationId)}${made('passkeyId', answer.passkeyId)}` +
    `${given('actor', answer.actor)}${made('error', status >= 400 ? (request.errorCode ?? undefined) : undefined)}` +
    `${given('traceId', request.traceId ?? undefined)},"msg":"${msg}"}\n`
  );
}
