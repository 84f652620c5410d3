import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled on the first answer that
 * uses it instead of for every route and status when the server starts: compiling them all took
 * about 0.4 s of a 1.8 s start, and again in every test that builds the application. A route's
 * first answer pays its few milliseconds; every later answer calls the same compiled function.
 * A schema fast-json-stringify rejects fails that first answer, which the tests of every route's
 * documented answers reach (test/http/openapi/documented-answers.test.ts).
 */
export function createLazySerializerFactory(): SerializerFactory {
  const eager = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = eager(externalSchemas, options);
    return (route) => {
      let serialize: ((doc: unknown) => string) | undefined;
      return (doc) => {
        serialize ??= compile(route);
        return serialize(doc);
      };
    };
  };
}
