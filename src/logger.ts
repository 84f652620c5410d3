import pino, { type DestinationStream, type Logger } from 'pino';
import { IDENTIFIER_KINDS } from './domain/identifiers.js';

/**
 * Secrets and personal data never reach a log line: request URLs are logged with the passkey
 * query value masked (see redactUrl), bodies are never logged, and these paths are censored
 * wherever a log call passes them.
 */
const SENSITIVE_KEYS = [
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

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  ...SENSITIVE_KEYS,
  ...SENSITIVE_KEYS.map((k) => `*.${k}`),
];

// Privacy API list filters name an identifier in the query (e.g. ?emailAddress=...): masked too.
const SENSITIVE_QUERY = new RegExp(
  `([?&](?:passkey|client_secret|access_token|token|${IDENTIFIER_KINDS.join('|')})=)[^&#]*`,
  'gi',
);

export function redactUrl(url: string): string {
  return url.replace(SENSITIVE_QUERY, '$1[REDACTED]');
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      base: { service: 'reviews-partner-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: {
        // Fastify logs the request object; keep the path with sensitive query values masked, no headers.
        req: (req: { method?: string; url?: string; host?: string; ip?: string }) => ({
          method: req.method,
          url: redactUrl(req.url ?? ''),
          host: req.host,
          remoteAddress: req.ip,
        }),
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}
