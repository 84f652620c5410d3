import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';

const NUL = '\u0000';

/** Path (object keys and array indexes) of the first string holding a NUL, or null. */
export function findNul(value: unknown): string[] | null {
  // Iterative: a body may nest deeper than the call stack allows.
  const stack: Array<{ value: unknown; path: string[] }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop() as { value: unknown; path: string[] };
    if (typeof v === 'string') {
      if (v.includes(NUL)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, String(i)] });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        if (key.includes(NUL)) return [...path, key.replaceAll(NUL, '\\0')];
        stack.push({ value: child, path: [...path, key] });
      }
    }
  }
  return null;
}

const detail = (field: string) => `${field || 'the body'} must not contain a NUL character (U+0000)`;

/**
 * PostgreSQL refuses text with a NUL byte (SQLite stores it), so such input would fail deep in
 * the store with a 500 on one database and be kept on the other. It is refused here, before any
 * step reads it, with a 400 naming where it was: path parameter, query parameter or body member.
 * Runs as a preValidation hook, after authentication (which hashes what it reads and so never
 * passes raw input to the database) and before the route schema.
 */
export async function refuseNulCharacters(request: FastifyRequest): Promise<void> {
  const inParams = findNul(request.params);
  if (inParams) {
    const field = inParams.join('.');
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field,
      detail: detail(field),
      source: { parameter: field },
    });
  }
  const inQuery = findNul(request.query);
  if (inQuery) {
    const field = inQuery[0] ?? '';
    throw new AppError('INVALID_QUERY_PARAMETER', {
      field,
      detail: detail(field),
      source: { parameter: field },
    });
  }
  const inBody = findNul(request.body);
  if (inBody) {
    const field = inBody.join('.');
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field,
      detail: detail(field),
      source: { pointer: `/${inBody.join('/')}` },
    });
  }
}
