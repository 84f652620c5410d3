import { AjvCompiler, type BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler } from 'fastify';

/** Ajv options shared by every part of a request; `coerceTypes` is decided per part below. */
const AJV_OPTIONS = { removeAdditional: false, allErrors: false } as const;

type ServerAjvOptions = { customOptions?: Record<string, unknown> } & Record<string, unknown>;
// The published types describe the compiler as taking a bare schema; Fastify calls it with the
// route's schema definition (schema, method, url, httpPart), as documented for validatorCompiler.
type Pool = (externalSchemas: unknown, options: ServerAjvOptions) => FastifySchemaCompiler<unknown>;

/**
 * Query strings and path parameters are text, so `?limit=5` is coerced to the number the schema
 * asks for (and a single value to a one-item array). A JSON body already carries types: coercing it
 * would publish `false` as the text "false" and take `"x"` for `["x"]`, so bodies are validated as
 * sent.
 */
export function createValidatorFactory(): BuildCompilerFromPool {
  const pool = AjvCompiler() as unknown as Pool;
  const factory = (externalSchemas: unknown, serverOptions: ServerAjvOptions = {}) => {
    const withCoercion = (coerceTypes: 'array' | false) =>
      pool(externalSchemas, {
        ...serverOptions,
        customOptions: { ...serverOptions.customOptions, ...AJV_OPTIONS, coerceTypes },
      });
    const coercing = withCoercion('array');
    const exact = withCoercion(false);
    const compile: FastifySchemaCompiler<unknown> = (route) =>
      route.httpPart === 'body' ? exact(route) : coercing(route);
    return compile;
  };
  return factory as unknown as BuildCompilerFromPool;
}
