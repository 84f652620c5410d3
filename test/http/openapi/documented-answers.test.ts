import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import { seedTestTenant, type TestTenant } from '../../helpers/credentials.js';
import { createTestApp, type TestApp } from '../../helpers/test-runtime.js';

interface Answer {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown }>;
}
interface Operation {
  operationId: string;
  deprecated?: boolean;
  security?: unknown[];
  parameters?: { name: string; in: string; example?: unknown }[];
  requestBody?: {
    content: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }>;
  };
  responses: Record<string, Answer>;
}
interface Document {
  info: { license?: { name: string } };
  servers?: { url: string; description: string; variables?: Record<string, { default: string }> }[];
  paths: Record<string, Record<string, Operation>>;
}

const API_PREFIXES = ['/response/v1/', '/contentmanagement/v1/', '/privacy/v1/'];
const JSON_API = 'application/vnd.api+json';

describe('/openapi.json describes every answer a client can get', () => {
  let t: TestApp;
  let doc: Document;
  let tenant: TestTenant;
  let operations: { path: string; method: string; op: Operation }[];
  const apiOperations = () => operations.filter((o) => API_PREFIXES.some((p) => o.path.startsWith(p)));

  before(async () => {
    t = await createTestApp({ PORT: '8080' });
    tenant = await seedTestTenant(t.runtime, 'production');
    const res = await t.app.inject({ url: '/openapi.json', headers: { host: 'localhost:8080' } });
    doc = res.json() as Document;
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );
  });
  after(() => t.close());

  it('names production and staging servers, a license, and security on every operation', () => {
    assert.equal(doc.info.license?.name, 'MIT');
    const servers = doc.servers ?? [];
    assert.deepEqual(
      servers.map((s) => s.description.split(':')[0]),
      ['Production', 'Staging'],
    );
    assert.equal(servers[0]?.url, 'http://{host}');
    assert.equal(servers[1]?.url, 'http://stg.{host}');
    assert.equal(servers[0]?.variables?.host?.default, 'localhost:8080');
    for (const { path, method, op } of operations)
      assert.ok(Array.isArray(op.security), `${method.toUpperCase()} ${path} has no security`);
  });

  it('takes the default host from ALLOWED_HOSTS when it is set', async () => {
    const other = await createTestApp({ ALLOWED_HOSTS: 'api.example.com', PUBLIC_SCHEME: 'https' });
    try {
      const res = await other.app.inject({ url: '/openapi.json', headers: { host: 'api.example.com' } });
      const servers = (res.json() as Document).servers ?? [];
      assert.equal(servers[0]?.url, 'https://{host}');
      assert.equal(servers[0]?.variables?.host?.default, 'api.example.com');
      assert.equal(servers[1]?.url, 'https://stg.{host}');
    } finally {
      await other.close();
    }
  });

  it('lists the statuses of every Response and Privacy API operation, with their headers', () => {
    for (const { path, method, op } of apiOperations()) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const status of ['400', '401', '403', '429', '503', '4XX', '5XX'])
        assert.ok(op.responses[status], `${where} lacks ${status}`);
      assert.ok(op.responses['401']?.headers?.['WWW-Authenticate'], `${where} 401 challenge`);
      for (const header of ['Retry-After', 'RateLimit', 'RateLimit-Policy'])
        assert.ok(op.responses['429']?.headers?.[header], `${where} 429 ${header}`);
      assert.ok(op.responses['503']?.headers?.['Retry-After'], `${where} 503 Retry-After`);
      const success = Object.entries(op.responses).find(([code]) => code.startsWith('2'));
      assert.ok(success?.[1].headers?.RateLimit, `${where} success RateLimit`);
      if (op.requestBody) {
        for (const status of ['413', '415']) assert.ok(op.responses[status], `${where} lacks ${status}`);
      }
      // A delete answers 204 also when there was nothing to delete (docs/interface.md §4.1).
      if (
        (path.includes('{responseGuid}') && method !== 'delete') ||
        path.endsWith('{id}') ||
        path.endsWith('/export')
      )
        assert.ok(op.responses['404'], `${where} lacks 404`);
      assert.ok(
        op.parameters?.some((p) => p.name === 'passkey' && p.in === 'query'),
        `${where} lacks the passkey parameter`,
      );
    }
  });

  it('documents Idempotency-Key, its replay header and 422 on each create', () => {
    const creates = apiOperations().filter(({ op }) =>
      op.parameters?.some((p) => p.name === 'idempotency-key' && p.in === 'header'),
    );
    const names = creates.map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    for (const expected of [
      'POST /privacy/v1/forgetRequests',
      'POST /privacy/v1/accessRequests',
      'POST /response/v1/clientResponses/{client}/reviews/{reviewId}',
      'POST /contentmanagement/v1/clientResponses/{client}/reviews/{reviewId}',
    ])
      assert.ok(names.includes(expected), `${expected} takes no Idempotency-Key: ${names.join(', ')}`);
    for (const { op } of creates) {
      const success = Object.entries(op.responses).find(([code]) => code.startsWith('2'));
      assert.ok(success?.[1].headers?.['Idempotent-Replayed'], `${op.operationId} Idempotent-Replayed`);
      assert.ok(success?.[1].headers?.RateLimit, `${op.operationId} RateLimit`);
      assert.ok(op.responses['422'], `${op.operationId} 422`);
    }
  });

  it('marks every answer under the deprecated prefix with Deprecation and Link', () => {
    const deprecated = operations.filter((o) => o.path.startsWith('/contentmanagement/v1/'));
    assert.ok(deprecated.length >= 10);
    for (const { path, method, op } of deprecated) {
      assert.equal(op.deprecated, true, `${method} ${path}`);
      for (const [status, answer] of Object.entries(op.responses)) {
        assert.ok(answer.headers?.Deprecation, `${method} ${path} ${status} Deprecation`);
        assert.ok(answer.headers?.Link, `${method} ${path} ${status} Link`);
      }
    }
  });

  it('accepts both media types for Response API bodies, with examples from the demo data', () => {
    const create = doc.paths['/response/v1/clientResponses/{client}/reviews/{reviewId}']?.post;
    assert.ok(create);
    assert.deepEqual(Object.keys(create.requestBody?.content ?? {}), [JSON_API, 'application/json']);
    assert.deepEqual(
      create.parameters?.filter((p) => p.in === 'path').map((p) => p.example),
      ['Acme-EN_GB', 'demo-acme-en_gb-1'],
    );
    const example = create.requestBody?.content[JSON_API]?.example as { data: { type: string } };
    assert.equal(example.data.type, 'clientResponse');
    for (const o of apiOperations().filter((o) => o.op.requestBody && o.path.startsWith('/response/v1/')))
      assert.deepEqual(Object.keys(o.op.requestBody?.content ?? {}), [JSON_API, 'application/json'], o.path);
    const forget = doc.paths['/privacy/v1/forgetRequests']?.post;
    const forgotten = forget?.requestBody?.content['application/json']?.examples?.example1?.value as Record<
      string,
      string
    >;
    assert.equal(forgotten.emailAddress, 'alice@example.com');
  });

  it('documents, explicitly, each status the server answers to misuse of each operation', async () => {
    // A passkey per API that allows one call a minute: the second one is a 429.
    const limited = {
      response: (
        await createPasskey(t.runtime.deps, {
          applicationId: tenant.applicationId,
          api: 'response',
          ratePerMinute: 1,
        })
      ).value,
      privacy: (
        await createPasskey(t.runtime.deps, {
          applicationId: tenant.applicationId,
          api: 'privacy',
          ratePerMinute: 1,
        })
      ).value,
    };
    const concrete = (path: string) =>
      path
        .replace('{client}', 'Acme-EN_GB')
        .replace('{reviewId}', 'demo-acme-en_gb-1')
        .replace('{responseGuid}', randomUUID())
        .replace('{id}', randomUUID());
    let checked = 0;
    for (const { path, method, op } of apiOperations()) {
      const api = path.startsWith('/privacy/') ? 'privacy' : 'response';
      const passkey = api === 'privacy' ? tenant.privacyPasskey : tenant.responsePasskey;
      const url = concrete(path);
      const bodyType = op.requestBody ? Object.keys(op.requestBody.content)[0] : undefined;
      const call = (o: {
        passkey?: string | null;
        token?: string | null;
        payload?: string;
        type?: string;
      }) => {
        const headers: Record<string, string> = { host: 'localhost:8080' };
        const token = o.token === undefined ? tenant.token : o.token;
        if (token) headers.authorization = `Bearer ${token}`;
        const type = o.type ?? bodyType;
        if (type) headers['content-type'] = type;
        const key = o.passkey === undefined ? passkey : o.passkey;
        return t.app.inject({
          method: method.toUpperCase() as InjectOptions['method'],
          url: key === null ? url : `${url}?passkey=${encodeURIComponent(key)}`,
          headers,
          ...(op.requestBody ? { payload: o.payload ?? '{}' } : {}),
        });
      };
      const cases: [string, Awaited<ReturnType<typeof call>>][] = [
        ['no token', await call({ token: null })],
        ['no passkey', await call({ passkey: null })],
        ['unknown passkey', await call({ passkey: 'pk_unknown' })],
        ['first limited call', await call({ passkey: limited[api] })],
        ['second limited call', await call({ passkey: limited[api] })],
      ];
      if (op.requestBody) {
        cases.push(['text body', await call({ type: 'text/plain', payload: 'hello' })]);
        cases.push(['huge body', await call({ payload: JSON.stringify({ pad: 'x'.repeat(2_000_000) }) })]);
      }
      if (!op.requestBody) cases.push(['unknown target', await call({})]);
      for (const [what, res] of cases) {
        const answer = op.responses[String(res.statusCode)];
        assert.ok(answer, `${method.toUpperCase()} ${path}, ${what}: ${res.statusCode} is not documented`);
        const mediaType = String(res.headers['content-type'] ?? '').split(';')[0] as string;
        if (res.statusCode !== 204)
          assert.ok(answer.content?.[mediaType], `${method.toUpperCase()} ${path}, ${what}: ${mediaType}`);
        for (const header of Object.keys(res.headers)) {
          if (
            ['ratelimit', 'ratelimit-policy', 'retry-after', 'www-authenticate', 'deprecation'].includes(
              header,
            )
          )
            assert.ok(
              Object.keys(answer.headers ?? {}).some((h) => h.toLowerCase() === header),
              `${method.toUpperCase()} ${path}, ${what}: ${res.statusCode} sends ${header}, not documented`,
            );
        }
        checked++;
      }
      const statuses = cases.map(([, r]) => r.statusCode);
      assert.ok(statuses.includes(429), `${method.toUpperCase()} ${path}: no 429 seen (${statuses})`);
    }
    assert.ok(checked >= 100, `${checked} answers checked`);
  });
});
