import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../helpers/test-runtime.js';

interface MediaType {
  schema?: { required?: string[]; $ref?: string };
}
interface Operation {
  operationId?: string;
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

/** The error shape of each API (src/http/errors/render.ts), by path prefix. */
function expectedShape(path: string): { mediaType: string; required: string[] } {
  if (path.startsWith('/auth/v1/')) return { mediaType: 'application/json', required: ['error'] };
  if (path.startsWith('/response/v1/') || path.startsWith('/contentmanagement/v1/'))
    return { mediaType: 'application/vnd.api+json', required: ['errors', 'httpCode'] };
  return { mediaType: 'application/problem+json', required: ['type', 'status'] };
}

describe('error answers in /openapi.json', () => {
  let t: TestApp;
  let operations: [string, string, Operation][];
  let schemas: Record<string, MediaType['schema']>;
  /** A schema, or the component its `$ref` names. */
  const resolve = (schema: MediaType['schema']) =>
    schema?.$ref ? schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
  before(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ url: '/openapi.json', headers: { host: 'localhost' } });
    const doc = res.json() as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, MediaType['schema']> };
    };
    schemas = doc.components.schemas;
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]): [string, string, Operation] => [path, method, op]),
    );
  });
  after(() => t.close());

  it('has operations to check', () => {
    assert.ok(operations.length >= 20);
  });

  it('documents 4xx and 5xx answers of every operation, in the shape of its API', () => {
    for (const [path, method, op] of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const codes = Object.keys(op.responses);
      assert.ok(
        codes.some((c) => /^4(\d\d|XX)$/.test(c)),
        `${where} documents no 4xx answer: ${codes}`,
      );
      assert.ok(
        codes.some((c) => /^5(\d\d|XX)$/.test(c)),
        `${where} documents no 5xx answer: ${codes}`,
      );
      const shape = expectedShape(path);
      for (const code of codes.filter((c) => /^[45]/.test(c))) {
        const content = op.responses[code]?.content ?? {};
        assert.deepEqual(Object.keys(content), [shape.mediaType], `${where} ${code}`);
        const required = resolve(content[shape.mediaType]?.schema)?.required ?? [];
        for (const member of shape.required)
          assert.ok(required.includes(member), `${where} ${code}: schema lacks ${member}`);
      }
    }
  });

  it('lists each status the token service answers (RFC 6749 §5.2, RFC 7009 §2.2.1)', () => {
    for (const [path, method, op] of operations) {
      if (!path.startsWith('/auth/v1/')) continue;
      for (const code of ['400', '401', '413', '429', '503', '4XX', '5XX'])
        assert.ok(op.responses[code], `${method.toUpperCase()} ${path} lacks ${code}`);
    }
  });
});
