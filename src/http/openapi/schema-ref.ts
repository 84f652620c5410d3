import { type Static, type TSchema, Type } from 'typebox';

/**
 * A reference to a schema registered under its `$id` (component-schemas.ts), typed as the schema
 * itself. Answers refer to the schemas many of them share, so Fastify compiles each once and
 * /openapi.json names it under `components.schemas` instead of repeating it in every answer
 * (and SDK types get its name).
 */
export function ref<T extends TSchema>(schema: T) {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new TypeError('only a schema with an $id can be referred to');
  return Type.Unsafe<Static<T>>(Type.Ref(id));
}
