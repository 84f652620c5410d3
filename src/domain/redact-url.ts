import { mentionsSecretCredential } from './credentials.js';
import { IDENTIFIER_KINDS } from './identifiers.js';
import { MASKED, maskSecretSegments } from './mask-secret-segments.js';

/**
 * Names whose values are secrets or personal data: masked in a request target whatever their
 * value (redactUrl), and censored wherever a log call passes them (logger.ts).
 */
export const SENSITIVE_KEYS = [
  'authorization',
  'client_secret',
  'clientSecret',
  'access_token',
  'accessToken',
  'refresh_token',
  'token',
  'passkey',
  'password',
  'secret',
  ...IDENTIFIER_KINDS,
];

/**
 * Query parameters whose values are logged as sent, when they have the shape of their filter:
 * statuses, page sizes, request ids, client names and timestamps carry neither a credential nor
 * personal data. Every other value is masked, whatever the name says: a name can be
 * percent-encoded (`%70asskey`), differ in case or carry brackets (`passkey[]`) and still reach a
 * parser that reads it as the passkey, so matching sensitive names would always miss one. The
 * shape check keeps text a caller typed into the wrong filter (an e-mail address as `id`) out too.
 */
const LOGGED_QUERY_PARAMETERS = new Map<string, RegExp>([
  ['status', /^[A-Za-z_]{1,20}$/],
  ['limit', /^\d{1,7}$/],
  ['id', /^[0-9A-Fa-f-]{1,36}$/],
  ['clientName', /^[A-Za-z0-9_.-]{1,100}$/],
  ['submittedAfter', /^[0-9T:.Z+-]{1,35}$/],
  ['completedAfter', /^[0-9T:.Z+-]{1,35}$/],
]);

/** Names shown (with the value masked) so an operator can tell what was sent; any other name is masked too. */
const KNOWN_QUERY_PARAMETERS = new Set(
  [...SENSITIVE_KEYS, 'client_id', 'cursor'].map((n) => n.toLowerCase()),
);

function decodeName(raw: string): string | null {
  // Nothing to decode in nearly every name; decodeURIComponent costs more than the rest of a parameter.
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

function redactParameter(pair: string): string {
  if (pair === '') return pair;
  const eq = pair.indexOf('=');
  const rawName = eq === -1 ? pair : pair.slice(0, eq);
  const name = decodeName(rawName);
  const shape = name === null ? undefined : LOGGED_QUERY_PARAMETERS.get(name);
  const value = pair.slice(eq + 1);
  if (shape && eq !== -1 && rawName === name && shape.test(value) && !mentionsSecretCredential(value))
    return pair;
  if (name === null) return MASKED;
  const bracketed = name.endsWith(']');
  const base = (bracketed ? name.replace(/\[[^\]]*\]$/, '') : name).toLowerCase();
  // What brackets hold is shown only when it carries no secret: `passkey[<a passkey>]`.
  if (KNOWN_QUERY_PARAMETERS.has(base) && !(bracketed && mentionsSecretCredential(name)))
    return `${rawName}=${MASKED}`;
  if (LOGGED_QUERY_PARAMETERS.has(name)) return `${rawName}=${MASKED}`;
  return MASKED;
}

/**
 * Path segments are names and ids (client names, review ids, GUIDs); a segment with any other
 * character (`@`, `+`, a space, a percent-escape) is text a caller put where an id belongs, and
 * may be an e-mail address or a phone number, so it is masked, as is one that carries a secret.
 */
const LOGGED_SEGMENT = /^[A-Za-z0-9_.:~-]{0,200}$/;
const PLAIN_PATH = /^[A-Za-z0-9_.:~/-]*$/;

const oddSegment = (segment: string) => !LOGGED_SEGMENT.test(segment);

function redactPath(path: string): string {
  // Most paths have nothing to mask: one test of the whole path stands for one per segment.
  if (path.length <= 200 && PLAIN_PATH.test(path) && !mentionsSecretCredential(path)) return path;
  return maskSecretSegments(path, oddSegment);
}

/**
 * The request target as logs may show it: path and query, with anything sensitive masked (OWASP
 * Logging Cheat Sheet, "Data to exclude").
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return redactPath(url);
  const query = url
    .slice(q + 1)
    .split('&')
    .map(redactParameter)
    .join('&');
  return `${redactPath(url.slice(0, q))}?${query}`;
}
