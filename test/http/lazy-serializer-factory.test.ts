import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLazySerializerFactory } from '../../src/http/lazy-serializer-factory.js';

const route = (schema: unknown) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' });

describe('createLazySerializerFactory', () => {
  const compile = createLazySerializerFactory()({}, {});

  it('serializes as fast-json-stringify does: only what the schema names, in its types', () => {
    const serialize = compile(
      route({ type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } } }),
    );
    assert.equal(serialize({ id: 'a', n: 2, secret: 'x' }), '{"id":"a","n":2}');
    assert.equal(serialize({ id: 'b', n: 3 }), '{"id":"b","n":3}');
  });

  it('compiles on the first answer, not when the route is registered', () => {
    const broken = route({ type: 'object', properties: { a: { $ref: '#/definitions/missing' } } });
    const serialize = compile(broken);
    assert.throws(() => serialize({ a: 1 }), /missing|resolve|reference/i);
  });
});
