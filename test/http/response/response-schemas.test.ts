import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { buildServer } from '../../../src/http/build-server.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import {
  type CallOptions,
  createResponseHarness,
  DE,
  EN,
  EN_REVIEW,
  EN_REVIEW_2,
  type ResponseHarness,
} from './response-fixtures.js';

// ajv-formats is CommonJS whose types describe only its ESM-compiled default export.
const addFormats = createRequire(import.meta.url)('ajv-formats') as FormatsPlugin;

/**
 * The official JSON:API 1.0 response schema, vendored from github.com/json-api/json-api
 * (_schemas/1.0/schema.json, the draft-07 revision).
 */
const jsonApiSchema = JSON.parse(
  readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'jsonapi-1.0.schema.json'), 'utf8'),
) as object;

interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, object> };
}
interface OpenApiOperation {
  operationId?: string;
  deprecated?: boolean;
  parameters?: { name: string; in: string; required?: boolean }[];
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}

describe('Response API conformance: OpenAPI document and JSON:API 1.0', () => {
  let h: ResponseHarness;
  let doc: OpenApiDoc;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const jsonApi07 = new Ajv({ strict: false, allErrors: true });
  addFormats(jsonApi07);
  const validateJsonApi = jsonApi07.compile(jsonApiSchema);
  const compiled = new Map<object, ValidateFunction>();

  before(async () => {
    h = await createResponseHarness();
    const r = await h.t.app.inject({ url: '/openapi.json', headers: { host: 'localhost:8080' } });
    doc = r.json();
  });
  after(() => h.close());

  /** A schema of the document with the components its `#/components/...` references point into. */
  function withComponents(schema: object): object {
    return { ...schema, components: doc.components };
  }

  /** The operation whose path template matches, preferring the template with most literal segments. */
  function operationFor(method: string, url: string): { template: string; op: OpenApiOperation } {
    const path = url.split('?')[0] as string;
    const candidates = Object.keys(doc.paths).filter((template) => {
      const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return re.test(path) && doc.paths[template]?.[method.toLowerCase()];
    });
    candidates.sort((a, b) => b.replace(/\{[^}]+\}/g, '').length - a.replace(/\{[^}]+\}/g, '').length);
    const template = candidates[0];
    assert.ok(template, `no OpenAPI operation for ${method} ${path}`);
    return { template, op: doc.paths[template]![method.toLowerCase()]! };
  }

  /** Validates an actual answer against the schema the OpenAPI document declares for it. */
  function conforms(method: string, url: string, r: LightMyRequestResponse): void {
    const { template, op } = operationFor(method, url);
    const status = String(r.statusCode);
    const declared = op.responses[status] ?? op.responses[`${status[0]}XX`];
    assert.ok(declared, `${method} ${template}: status ${status} is not documented`);
    if (r.statusCode === 204) {
      assert.equal(r.body, '');
      assert.equal(declared.content, undefined);
      return;
    }
    const mediaType = String(r.headers['content-type']).split(';')[0]!.trim();
    const media = declared.content?.[mediaType];
    assert.ok(media, `${method} ${template} ${status}: ${mediaType} is not documented`);
    let validate = compiled.get(media.schema);
    if (!validate) {
      validate = ajv.compile(withComponents(media.schema));
      compiled.set(media.schema, validate);
    }
    const body = r.json() as Record<string, unknown>;
    assert.ok(validate(body), `${method} ${template} ${status}: ${ajv.errorsText(validate.errors)}`);
    if (mediaType === 'application/vnd.api+json') isJsonApi(body, `${method} ${template} ${status}`);
  }

  /**
   * Success documents must pass the JSON:API schema as they are. Error documents also carry the
   * public system's members (DESIGN.md), which strict JSON:API forbids: without them they must pass.
   */
  function isJsonApi(body: Record<string, unknown>, what: string): void {
    let candidate = body;
    if ('errors' in body) {
      const { httpCode: _h, requestURI: _r, message: _m, ...rest } = body;
      candidate = {
        ...rest,
        errors: (body.errors as Record<string, unknown>[]).map(
          ({ field: _f, message: _msg, source, ...e }) => {
            const { header: _header, ...jsonApiSource } = (source ?? {}) as Record<string, unknown>;
            return Object.keys(jsonApiSource).length > 0 ? { ...e, source: jsonApiSource } : e;
          },
        ),
      };
    }
    assert.ok(
      validateJsonApi(candidate),
      `${what} is not JSON:API 1.0: ${jsonApi07.errorsText(validateJsonApi.errors)}`,
    );
  }

  async function exchange(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: CallOptions = {},
  ) {
    const r = await h.call(path, { method, ...options });
    conforms(method, path, r);
    return r;
  }

  it('publishes OpenAPI 3.1 with every Response API operation, under both prefixes', () => {
    assert.equal(doc.openapi, '3.1.0');
    const ids = new Set<string>();
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!/^\/(response|contentmanagement)\//.test(template)) continue;
        assert.ok(op.operationId, `${method} ${template} has an operationId`);
        assert.ok(!ids.has(op.operationId), `operationId ${op.operationId} is unique`);
        ids.add(op.operationId);
        assert.deepEqual(op.security, [{ bearer: [] }]);
        assert.ok(
          op.parameters?.some((p) => p.name === 'passkey' && p.in === 'query' && p.required === true),
          `${method} ${template} requires the passkey parameter`,
        );
        assert.equal(
          op.deprecated === true,
          template.startsWith('/contentmanagement/'),
          `${template} deprecated`,
        );
        assert.ok(op.responses['4XX']?.content?.['application/vnd.api+json'], `${method} ${template} 4XX`);
        assert.ok(op.responses['200'] ?? op.responses['204'], `${method} ${template} success`);
      }
    }
    const expected = [
      'get /clientResponses/{client}/reviews/{reviewId}',
      'post /clientResponses/{client}/reviews/{reviewId}',
      'post /clientResponses/reviews/-/responses',
      'get /clientResponses/{responseGuid}',
      'patch /clientResponses/{responseGuid}',
      'delete /clientResponses/{responseGuid}',
      'get /clientResponses/{responseGuid}/author',
      'get /clientResponses/{responseGuid}/relationships/author',
      'get /clientResponses/{responseGuid}/review',
      'get /clientResponses/{responseGuid}/relationships/review',
    ];
    for (const prefix of ['/response/v1', '/contentmanagement/v1']) {
      for (const e of expected) {
        const [method, path] = e.split(' ') as [string, string];
        assert.ok(doc.paths[prefix + path]?.[method], `${method} ${prefix}${path} is documented`);
      }
    }
    assert.equal(ids.size, expected.length * 2);
    // The same document describes the token service the bearer tokens come from.
    assert.ok(doc.paths['/auth/v1/oauth2/token']?.post, 'the token endpoint is documented');
  });

  it('has checks with teeth: the schemas reject shapes that break the contract', async () => {
    // JSON:API 1.0 forbids clientName beside type and id (hence meta), and unknown top-level members.
    assert.equal(validateJsonApi({ data: { type: 'review', id: 'r', clientName: 'Acme-EN_GB' } }), false);
    assert.equal(validateJsonApi({ data: { type: 'author', id: 'a' }, relationships: {} }), false);
    assert.equal(validateJsonApi({ counts: [] }), false);
    assert.equal(validateJsonApi({ data: { type: 'author', id: 'a' }, links: { self: 'http://h/x' } }), true);
    const { op } = operationFor(
      'GET',
      '/response/v1/clientResponses/00000000-0000-4000-8000-000000000000/author',
    );
    const validate = ajv.compile(
      withComponents(op.responses['200']!.content!['application/vnd.api+json']!.schema),
    );
    const good = { data: { type: 'author', id: 'a' }, links: { self: 'http://h/x', related: 'http://h/x' } };
    assert.equal(validate(good), true);
    assert.equal(validate({ ...good, data: { type: 'writer', id: 'a' } }), false);
    assert.equal(validate({ ...good, links: { self: 'http://h/x' } }), false);
  });

  it('answers every operation as documented, success documents passing JSON:API 1.0', async () => {
    for (const prefix of ['/response/v1', '/contentmanagement/v1']) {
      const base = `${prefix}/clientResponses`;
      const created = await exchange('POST', `${base}/${EN}/reviews/${EN_REVIEW}`, {
        body: { attributes: { department: 'Support', response: `Thanks (${prefix})`, responseBy: 'Sam' } },
      });
      assert.equal(created.statusCode, 200);
      const id = created.json().data.id as string;
      await exchange('POST', `${base}/${DE}/reviews/demo-acme-de_de-1`, {
        body: { attributes: { department: 'Kundendienst', response: `Danke (${prefix})` } },
      });
      await exchange('GET', `${base}/${EN}/reviews/${EN_REVIEW}`);
      await exchange('GET', `${base}/${EN}/reviews/${EN_REVIEW_2}`);
      await exchange('GET', `${base}/${id}`);
      await exchange('PATCH', `${base}/${id}`, { body: { attributes: { responseBy: null } } });
      for (const sub of ['/author', '/relationships/author', '/review', '/relationships/review']) {
        const r = await exchange('GET', `${base}/${id}${sub}`);
        assert.equal(r.statusCode, 200);
      }
      const counts = await exchange('POST', `${base}/reviews/-/responses`, {
        body: { reviewIds: [EN_REVIEW, 'x'] },
      });
      assert.equal(counts.statusCode, 200);
      assert.equal((await exchange('DELETE', `${base}/${id}`)).statusCode, 204);
    }
  });

  it('answers errors as documented: JSON:API error objects plus the public members', async () => {
    const base = '/response/v1/clientResponses';
    const statuses = new Set<number>();
    const record = (r: LightMyRequestResponse) => statuses.add(r.statusCode);
    record(await exchange('GET', `${base}/00000000-0000-4000-8000-000000000000/author`));
    record(await exchange('GET', `${base}/not-a-guid/author`));
    record(await exchange('GET', `${base}/${EN}/reviews/${EN_REVIEW}`, { token: null }));
    record(await exchange('GET', `${base}/${EN}/reviews/${EN_REVIEW}`, { passkey: 'rpa_pk_unknown' }));
    record(await exchange('GET', `${base}/${EN}/reviews/${EN_REVIEW}`, { passkey: null }));
    record(await exchange('GET', `${base}/${EN}/reviews/no-such-review`));
    record(await exchange('GET', `${base}/Nobody-XX/reviews/${EN_REVIEW}`));
    record(
      await exchange('POST', `${base}/${EN}/reviews/${EN_REVIEW}`, {
        body: { attributes: { response: '' } },
      }),
    );
    record(
      await exchange('POST', `${base}/${EN}/reviews/${EN_REVIEW}`, {
        body: 'x',
        headers: { 'content-type': 'text/plain' },
      }),
    );
    record(
      await exchange('POST', `${base}/${EN}/reviews/${EN_REVIEW}`, {
        body: '{',
        headers: { 'content-type': 'application/json' },
      }),
    );
    record(
      await exchange('POST', `${base}/${EN}/reviews/${EN_REVIEW}`, {
        body: JSON.stringify({ attributes: { department: 'D', response: 'y'.repeat(1_100_000) } }),
        headers: { 'content-type': 'application/json' },
      }),
    );
    record(await exchange('POST', `${base}/reviews/-/responses`, { body: { reviewIds: 'not a list' } }));

    // Over the rate limit: 429 in the same shape, whatever limiter refuses.
    const refusing = await buildServer({
      ...h.t.runtime.http,
      limiter: {
        async consume() {
          return {
            allowed: false,
            exceeded: 'rate',
            retryAfterSeconds: 7,
            headers: { ratelimit: 'r=0; t=7' },
          };
        },
        async close() {},
      },
    });
    try {
      const url = `${base}/${EN}/reviews/${EN_REVIEW}?passkey=${h.tenant.responsePasskey}`;
      const limited = await refusing.inject({
        url,
        headers: { host: 'localhost:8080', authorization: `Bearer ${h.tenant.token}` },
      });
      conforms('GET', url, limited);
      record(limited);
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.headers['retry-after'], '7');
    } finally {
      await refusing.close();
    }

    assert.deepEqual([...statuses].sort(), [400, 401, 403, 404, 413, 415, 429]);
  });
});
