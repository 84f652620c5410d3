import pino, { type DestinationStream, type Logger } from 'pino';
import { batchedStdout } from './batched-stdout.js';
import { MASKED } from './domain/mask-secret-segments.js';
import { redactUrl, SENSITIVE_KEYS } from './domain/redact-url.js';

/**
 * Secrets and personal data never reach a log line: request URLs are logged with every query
 * value masked but a few known-harmless ones (domain/redact-url.ts), bodies are never logged, and
 * these paths are censored wherever a log call passes them.
 */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  ...SENSITIVE_KEYS,
  ...SENSITIVE_KEYS.map((k) => `*.${k}`),
];

/**
 * pino's `isoTime`, its date and second formatted once per second and the milliseconds appended:
 * V8 formats an ISO date through printf (~4,000 instructions), and a busy server writes thousands
 * of lines a second. The access line takes the same field (http/access-log.ts).
 */
function isoTimeOncePerSecond(): () => string {
  let second = Number.NaN;
  let head = '';
  return () => {
    const now = Date.now();
    const ms = now % 1000;
    if (now - ms !== second) {
      second = now - ms;
      // `,"time":"2026-11-29T05:17:30.`: toISOString's first 20 characters, up to the milliseconds.
      head = `,"time":"${new Date(second).toISOString().slice(0, 20)}`;
    }
    return `${head}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
  };
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: MASKED },
      base: { service: 'reviews-partner-api' },
      timestamp: isoTimeOncePerSecond(),
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
    destination ?? batchedStdout(),
  );
}
