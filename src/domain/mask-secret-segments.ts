import { mentionsSecretCredential } from './credentials.js';

/** What a masked part of a request target is shown as, in logs and in error answers alike. */
export const MASKED = '[REDACTED]';

/**
 * A segment as a router reads it: a percent-escape is the byte it names. Decoded byte by byte
 * (never failing, unlike decodeURIComponent on a malformed escape), since every credential is
 * ASCII: `rpa%5Fpk%5F…` is a passkey as much as `rpa_pk_…` is.
 */
function decodedEscapes(segment: string): string {
  return segment.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

function carriesSecret(segment: string): boolean {
  return (
    mentionsSecretCredential(segment) ||
    (segment.includes('%') && mentionsSecretCredential(decodedEscapes(segment)))
  );
}

/**
 * A request path (no query) with each segment that carries a secret credential, as sent or
 * percent-decoded, replaced by [REDACTED], and each segment `alsoMask` picks. Log lines and
 * error answers (`instance`, `requestURI`) show paths through it alone, so neither repeats a
 * credential a caller put where an id belongs (docs/cli.md; OWASP Logging Cheat Sheet, "Data to
 * exclude").
 */
export function maskSecretSegments(path: string, alsoMask?: (segment: string) => boolean): string {
  return path
    .split('/')
    .map((segment) => (alsoMask?.(segment) || carriesSecret(segment) ? MASKED : segment))
    .join('/');
}

/**
 * A message with each word (whitespace apart) masked as a path is: an error's detail may quote
 * what a caller sent where an id belongs (a path, a client name, a review id).
 */
export function maskSecretWords(text: string): string {
  return text.replace(/\S+/g, (word) => maskSecretSegments(word));
}
