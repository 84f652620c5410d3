import { createHmac, hkdfSync } from 'node:crypto';
import { AppError } from '../errors.js';
import { seal as sealText, unseal } from './seal.js';

/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header): a client-chosen string that makes
 * a create safe to retry. The same key with the same request answers the first result again for
 * 24 hours; with another request it is refused (docs/api-guide.md, Retrying safely).
 */
const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

/** A key taken at or before this instant is past its window: free again, and due for purging. */
export function idempotencyKeysExpiredAt(now: number): number {
  return now - IDEMPOTENCY_WINDOW_MS;
}

// Printable ASCII without spaces: a UUID, a ULID, a job's name and run number.
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/**
 * The key as sent, or a 400 naming the header. The draft writes it as a structured-field string
 * (RFC 8941 §3.3.3, `"8e03978e-…"`); a bare token, as many clients send, is the same key.
 */
export function readIdempotencyKey(sent: string): string {
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(sent);
  const value = quoted ? (quoted[1] ?? '').replace(/\\(["\\])/g, '$1') : sent;
  if (!KEY_RE.test(value))
    throw new AppError('INVALID_HEADER', {
      field: 'Idempotency-Key',
      detail: 'Idempotency-Key is 1 to 255 printable ASCII characters without spaces',
    });
  return value;
}

/**
 * The stored form of a key: a keyed hash (HMAC-SHA256 with the server's hash key, the one privacy
 * identifiers are hashed with), so a guessable key cannot be recognised in the database alone.
 */
export function idempotencyKeyHash(hashKey: string, key: string): string {
  return createHmac('sha256', hashKey).update(key).digest('base64url');
}

/** JSON with object members in one order, so a body sent again with its members reordered is the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * What makes two requests "the same" for a key: method, path and body, as a keyed hash, since a
 * body may hold what must not be kept (a person's identifiers, a response's text).
 */
export function requestFingerprint(hashKey: string, method: string, path: string, body: unknown): string {
  return createHmac('sha256', hashKey)
    .update(`${method} ${path}\n${canonical(body ?? null)}`)
    .digest('base64url');
}

/**
 * Who may read a stored answer: the Idempotency-Key, the caller it belongs to (`scope`), and a
 * secret of that caller's that the database does not hold (`callerSecret`: derived from the
 * credential the caller presents, of which only a digest is stored). A first answer may hold a
 * secret shown once (an application's client secret, a passkey); it is kept encrypted
 * (AES-256-GCM) under a key derived from all three (HKDF, RFC 5869), so a retry with the same key
 * and credential reads it again, and the database alone, even with a guessable key, does not.
 */
export interface AnswerSeal {
  readonly idempotencyKey: string;
  readonly scope: string;
  readonly callerSecret: string;
}

function answerKey(seal: AnswerSeal): Buffer {
  const material = `${seal.idempotencyKey}\u0000${seal.callerSecret}`;
  return Buffer.from(hkdfSync('sha256', material, seal.scope, 'rpa idempotent answer', 32));
}

export function sealAnswer(seal: AnswerSeal, answer: unknown): string {
  return sealText(answerKey(seal), JSON.stringify(answer)).toString('base64');
}

export function openAnswer(seal: AnswerSeal, sealed: string): unknown {
  const text = unseal(answerKey(seal), Buffer.from(sealed, 'base64'));
  if (text === null) throw new Error('the stored answer does not open with this seal');
  return JSON.parse(text) as unknown;
}
