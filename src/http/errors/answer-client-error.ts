import { randomUUID } from 'node:crypto';
import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors.js';
import { errorShapeFor, pathOf } from './render.js';

/**
 * The request target of the request line in `raw` (the bytes Node's parser gave up on), if it
 * reads as one (RFC 9112 §3).
 */
function targetOf(raw: unknown): string | null {
  if (!Buffer.isBuffer(raw)) return null;
  const line = /^[A-Z]+ ([\x21-\x7e]+) HTTP\/\d\.\d\r?\n/.exec(raw.toString('latin1', 0, 8192));
  return line?.[1] ?? null;
}

function appErrorFor(code: string | undefined): AppError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('REQUEST_TIMEOUT', { detail: 'the request did not arrive in time' });
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('HEADERS_TOO_LARGE', {
        detail: 'the request line and header fields are too large',
      });
    default:
      return new AppError('INVALID_REQUEST', { detail: 'the request is not valid HTTP/1.1' });
  }
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the bytes on a connection (400 for
 * malformed syntax, 431 for an oversized header section) or the request did not arrive within
 * REQUEST_TIMEOUT_MS / HEADERS_TIMEOUT_MS (408). No route has run and none will, so the answer is
 * written here, in the shape of the API the request line names (RFC 9457 when it is unreadable),
 * with an X-Request-Id, without the query (it may carry a passkey), and with `Connection: close`
 * because the connection ends with it (RFC 9112 §9.6): a client that pooled it must not reuse it.
 */
export function answerClientError(logger: FastifyBaseLogger) {
  return (err: ConnectionError, socket: Socket): void => answer(logger, err, socket);
}

function answer(logger: FastifyBaseLogger, err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // An answer already under way cannot be replaced; writing another would corrupt it (as Node does).
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const error = appErrorFor(err.code);
  const target = inFlight?.req?.url ?? targetOf(err.rawPacket);
  const shape = errorShapeFor(target);
  const requestId = randomUUID();
  const body = JSON.stringify(shape.body(error, target === null ? null : pathOf(target)));
  const headers: Record<string, string> = {
    ...shape.headers,
    ...error.headers,
    'content-type': `${shape.mediaType}; charset=utf-8`,
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    date: new Date().toUTCString(),
    connection: 'close',
  };
  // The code names the parser's complaint; the error itself holds the raw bytes, query included.
  // The target goes as `req`, so the logger's serializer masks it as on every access line.
  const req = target === null ? undefined : { url: target };
  logger.info({ reqId: requestId, code: err.code, req, statusCode: error.status }, 'client error');
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n${head}\r\n${body}`, () =>
    socket.destroy(),
  );
}
