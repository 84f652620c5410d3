import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../../errors.js';

/** A parsed application/x-www-form-urlencoded body: each parameter at most once. */
type FormBody = Readonly<Record<string, string>>;

const FORM_TYPE = 'application/x-www-form-urlencoded';
const FORM_TYPE_UTF8 = `${FORM_TYPE};charset=UTF-8`;

const malformed = (detail: string, field?: string) =>
  new AppError('INVALID_REQUEST', { detail, ...(field ? { field } : {}) });

/** WHATWG URL §5.1 (the form serialization RFC 6749 Appendix B names): `+` is a space. */
export function decodeFormComponent(raw: string): string {
  // Client ids, secrets and grant types are sent as they are: nothing to decode.
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    throw malformed('the request contains malformed percent-encoding');
  }
}

/**
 * RFC 6749 §3.2: parameters sent without a value are treated as omitted, and a parameter must
 * not be included more than once. Generic parsers keep the last or build an array; this one
 * refuses repeats, so `client_id=a&client_id=b` can never authenticate as either.
 */
function parseFormBody(text: string): FormBody {
  const params: Record<string, string> = Object.create(null);
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeFormComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decodeFormComponent(pair.slice(eq + 1));
    if (value === '') continue;
    if (Object.hasOwn(params, name)) {
      const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
      throw malformed(`the ${shown} parameter must not be repeated`, shown);
    }
    params[name] = value;
  }
  return params;
}

/** Registers the strict form parser in the calling (encapsulated) context only. */
export function registerFormBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser(FORM_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseFormBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

/**
 * RFC 6749 §4.4.2 / RFC 7009 §2.1: the body is form-encoded in UTF-8 (Appendix B). Checked
 * before the body is read, so another type gets the OAuth error shape (400 invalid_request, as
 * §5.2 prescribes for malformed requests) instead of a generic 415.
 */
export function requireFormEncoded(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const contentType = request.headers['content-type'] ?? '';
  // What every client sends, decided without splitting the header.
  if (contentType === FORM_TYPE || contentType === FORM_TYPE_UTF8) {
    done();
    return;
  }
  const [mediaType = '', ...parameters] = contentType.split(';');
  const charset = parameters
    .map((p) => p.trim().toLowerCase())
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replaceAll('"', '');
  if (mediaType.trim().toLowerCase() !== FORM_TYPE || (charset !== undefined && charset !== 'utf-8')) {
    throw new AppError('INVALID_REQUEST', {
      detail: `the request body must be ${FORM_TYPE} (UTF-8)`,
      source: { header: 'content-type' },
    });
  }
  done();
}
