import { isDeepStrictEqual } from 'node:util';

interface HeaderObject {
  readonly schema?: { readonly title?: string };
  readonly $ref?: string;
}
interface Answer {
  headers?: Record<string, HeaderObject>;
}
interface OpenApiObject {
  paths?: Record<string, Record<string, { responses?: Record<string, Answer> }>>;
  components?: Record<string, unknown>;
}

/**
 * Moves the header objects answers repeat (RateLimit on every answer, Retry-After on every 429
 * and 503, ...) into `components.headers` and refers to them (OpenAPI 3.1 §4.8.7), which
 * @fastify/swagger cannot do by itself: without this they are most of the document. A header
 * is named after its field, or after its schema's `title` where one field has several meanings
 * (a Bearer or a Basic challenge); two different objects under one name are a programming error.
 */
export function shareHeaders<T extends object>(openapiObject: T): T {
  const document = openapiObject as OpenApiObject;
  const shared: Record<string, HeaderObject> = {};
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const answer of Object.values(operation.responses ?? {})) {
        const headers = answer.headers ?? {};
        for (const [field, header] of Object.entries(headers)) {
          if (header.$ref) continue;
          const name = header.schema?.title ?? field;
          const known = shared[name];
          if (known && !isDeepStrictEqual(known, header))
            throw new Error(`two different ${field} header objects share the name ${name}`);
          shared[name] = header;
          headers[field] = { $ref: `#/components/headers/${name}` };
        }
      }
    }
  }
  const sorted = Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b)));
  document.components = { ...document.components, headers: sorted };
  return openapiObject;
}
