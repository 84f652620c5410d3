import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../../errors.js';

const NUL = '\u0000';

/**
 * How deep a JSON body may nest. The deepest document of these APIs is three levels
 * (`data.attributes.response`); a body nested thousands deep is an attack on whatever walks it
 * (validation, serialization), so it is refused before anything does.
 */
const MAX_BODY_DEPTH = 32;

interface Node {
  readonly value: unknown;
  readonly key: string | null;
  readonly parent: Node | null;
  readonly depth: number;
}

function pathOf(node: Node, key?: string): string[] {
  const path: string[] = key === undefined ? [] : [key];
  for (let n: Node | null = node; n && n.key !== null; n = n.parent) path.unshift(n.key);
  return path;
}

/**
 * Path (object keys and array indexes) of the first string holding a NUL, `'too deep'` for a value
 * nested deeper than `maxDepth`, or null. Iterative and linear in the size of the value: the
 * path is rebuilt from parent links only when something is found.
 */
function findNul(value: unknown, maxDepth = MAX_BODY_DEPTH): string[] | 'too deep' | null {
  const stack: Node[] = [{ value, key: null, parent: null, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const v = node.value;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return pathOf(node);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (node.depth >= maxDepth) return 'too deep';
    const entries: Array<[string, unknown]> = Array.isArray(v)
      ? v.map((child, i) => [String(i), child])
      : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string, unknown];
      if (key.includes(NUL)) return pathOf(node, key.replaceAll(NUL, '\\0'));
      stack.push({ value: child, key, parent: node, depth: node.depth + 1 });
    }
  }
  return null;
}

/**
 * True when `value` is absent, or a flat object of strings (path and query parameters, almost
 * always, and form bodies) without a NUL in any name or value: then there is nothing to walk.
 * Anything else goes to findNul, which also names where the NUL is.
 */
function flatWithoutNul(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object' || Array.isArray(value)) return false;
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v !== 'string' || v.includes(NUL) || key.includes(NUL)) return false;
  }
  return true;
}

/** The refusal of a NUL, also where the passkey and Basic credentials are read. */
export const nulDetail = (field: string) =>
  `${field || 'the body'} must not contain a NUL character (U+0000)`;

/**
 * PostgreSQL refuses text with a NUL byte (SQLite stores it), so such input would fail deep in
 * the store with a 500 on one database and be kept on the other. It is refused here, before any
 * step reads it, with a 400 naming where it was: path parameter, query parameter or body member.
 * A body nested deeper than MAX_BODY_DEPTH is refused here too. Runs as a preValidation hook,
 * after authentication and before the route schema; the passkey, read by authentication before
 * this runs, is checked there (steps/authenticate-passkey.ts).
 */
export function refuseNulCharacters(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (flatWithoutNul(request.params) && flatWithoutNul(request.query) && flatWithoutNul(request.body)) {
    done();
    return;
  }
  const inParams = findNul(request.params);
  if (Array.isArray(inParams)) {
    const field = inParams.join('.');
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field,
      detail: nulDetail(field),
      source: { parameter: field },
    });
  }
  const inQuery = findNul(request.query);
  if (Array.isArray(inQuery)) {
    const field = inQuery[0] ?? '';
    throw new AppError('INVALID_QUERY_PARAMETER', {
      field,
      detail: nulDetail(field),
      source: { parameter: field },
    });
  }
  const inBody = findNul(request.body);
  if (inBody === 'too deep') {
    throw new AppError('INVALID_PROPERTY_VALUE', {
      detail: `the body is nested deeper than ${MAX_BODY_DEPTH} levels`,
      source: { pointer: '/' },
    });
  }
  if (inBody) {
    const field = inBody.join('.');
    throw new AppError('INVALID_PROPERTY_VALUE', {
      field,
      detail: nulDetail(field),
      source: { pointer: `/${inBody.join('/')}` },
    });
  }
  done();
}
