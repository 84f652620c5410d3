import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { buildServer } from '../../../src/http/build-server.js';
import { seedTestTenant, type TestTenant } from '../../helpers/credentials.js';
import { eventually } from '../../helpers/eventually.js';
import { proxyDuringSuite } from '../../helpers/tcp-proxy.js';
import {
  createTestRuntime,
  TEST_DATABASE_URL,
  TEST_DIALECT,
  type TestRuntime,
} from '../../helpers/test-runtime.js';
import { requestToken } from '../auth/oauth-fixtures.js';

const skip =
  TEST_DIALECT !== 'postgres' &&
  'PostgreSQL only: a database server that can go away while the process runs (DATABASE_URL)';
const host = 'localhost:8080';
const EN = 'Acme-EN_GB';

function assertRetryLater(res: LightMyRequestResponse, mediaType: string): void {
  assert.equal(res.statusCode, 503, res.body);
  assert.equal(res.headers['content-type'], `${mediaType}; charset=utf-8`);
  assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/, 'Retry-After in seconds');
  assert.doesNotMatch(res.body, /ECONN|Connection terminated|timeout exceeded|postgres/i, 'no internals');
}

interface Harness {
  readonly runtime: TestRuntime;
  readonly app: FastifyInstance;
  readonly tenant: TestTenant;
  readonly responseId: string;
  token(): Promise<LightMyRequestResponse>;
  author(): Promise<LightMyRequestResponse>;
  forget(): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

async function startHarness(databaseUrl: string, env: Record<string, string>): Promise<Harness> {
  const runtime = await createTestRuntime(env, { databaseUrl });
  const app = await buildServer(runtime.http);
  await app.ready();
  const tenant = await seedTestTenant(runtime, 'production');
  const created = await app.inject({
    method: 'POST',
    url: `/response/v1/clientResponses/${EN}/reviews/demo-acme-en_gb-1?passkey=${tenant.responsePasskey}`,
    headers: { host, authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ attributes: { department: 'Support', response: 'Thanks!' } }),
  });
  assert.equal(created.statusCode, 200, created.body);
  const responseId = created.json().data.id as string;
  let person = 0;
  return {
    runtime,
    app,
    tenant,
    responseId,
    token: () => requestToken(app, tenant.clientId, tenant.clientSecret),
    author: () =>
      app.inject({
        url: `/response/v1/clientResponses/${responseId}/author?passkey=${tenant.responsePasskey}`,
        headers: { host, authorization: `Bearer ${tenant.token}` },
      }),
    forget: () =>
      app.inject({
        method: 'POST',
        url: `/privacy/v1/forgetRequests?passkey=${tenant.privacyPasskey}`,
        headers: { host, authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ authorId: `outage-${++person}` }),
      }),
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}

describe('answers while PostgreSQL cannot serve', { skip }, () => {
  const faults = proxyDuringSuite(TEST_DATABASE_URL);
  const { uncaught } = faults;

  it('answers 503 with Retry-After in each API’s shape during an outage, and serves again after it', async () => {
    faults.proxy().setMode('pass');
    // Nothing answered from memory: every call below needs the database.
    const h = await startHarness(faults.proxy().url(TEST_DATABASE_URL), {
      TOKEN_CACHE_TTL_MS: '0',
      DATABASE_POOL_TIMEOUT_MS: '500',
    });
    try {
      assert.equal((await h.token()).statusCode, 200);
      assert.equal((await h.author()).statusCode, 200);
      assert.equal((await h.forget()).statusCode, 201);

      faults.proxy().setMode('refuse');
      for (let i = 0; i < 3; i++) {
        const token = await h.token();
        assertRetryLater(token, 'application/json');
        assert.equal(token.json().error, 'temporarily_unavailable');
        assert.equal(token.headers['cache-control'], 'no-store');

        const author = await h.author();
        assertRetryLater(author, 'application/vnd.api+json');
        assert.equal(author.json().errors[0].code, 'SERVICE_UNAVAILABLE');
        assert.equal(author.json().errors[0].status, '503');

        const forget = await h.forget();
        assertRetryLater(forget, 'application/problem+json');
        assert.equal(forget.json().code, 'SERVICE_UNAVAILABLE');
        assert.equal(forget.json().status, 503);
      }

      faults.proxy().setMode('pass');
      await eventually(async () => assert.equal((await h.token()).statusCode, 200));
      await eventually(async () => assert.equal((await h.author()).statusCode, 200));
      await eventually(async () => assert.equal((await h.forget()).statusCode, 201));
      await eventually(async () => assert.match(h.runtime.logs.text(), /outage ended/));

      const lines = h.runtime.logs.lines;
      assert.equal(lines.filter((l) => l.includes('database unavailable: outage started')).length, 1);
      assert.equal(lines.filter((l) => l.includes('database available again: outage ended')).length, 1);
      assert.deepEqual(
        lines.filter((l) => l.includes('"stack"') || JSON.parse(l).level >= 50),
        [],
        'no error line, no stack, per request',
      );
      const metrics = await h.runtime.deps.metrics.registry.metrics();
      assert.match(metrics, /^rpa_database_errors_total [1-9]/m);
      assert.deepEqual(uncaught, []);
    } finally {
      faults.proxy().setMode('pass');
      await h.close();
    }
  });

  it('answers 503 with Retry-After within about 2 s while PostgreSQL does not answer, then serves again', async () => {
    faults.proxy().setMode('pass');
    // The default deadlines; nothing answered from memory.
    const h = await startHarness(faults.proxy().url(TEST_DATABASE_URL), { TOKEN_CACHE_TTL_MS: '0' });
    try {
      assert.equal((await h.forget()).statusCode, 201);
      // Connections stay open and nothing comes back, as from a stopped server or a hung network.
      faults.proxy().setMode('stall');
      const sent = Date.now();
      const calls = [h.token(), h.author(), h.forget(), h.forget(), h.token(), h.forget()];
      for (const [i, call] of calls.entries()) {
        const res = await call;
        const ms = Date.now() - sent;
        assert.equal(res.statusCode, 503, `call ${i}: ${res.statusCode} ${res.body}`);
        assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/, 'Retry-After in seconds');
        assert.ok(ms < 2_500, `call ${i} answered after ${ms} ms`);
      }
      faults.proxy().setMode('pass');
      const started = Date.now();
      assert.equal((await h.forget()).statusCode, 201);
      assert.equal((await h.token()).statusCode, 200);
      assert.ok(Date.now() - started < 1_000, 'served again at once, on new connections');
      assert.doesNotMatch(h.runtime.logs.text(), /"stack"/);
      assert.deepEqual(uncaught, []);
    } finally {
      faults.proxy().setMode('pass');
      await h.close();
    }
  });

  it('keeps a database outage open while a passkey at its limit is refused from Redis alone', {
    skip: !process.env.REDIS_URL && 'needs REDIS_URL: the counters then keep their copy in the database',
  }, async () => {
    faults.proxy().setMode('pass');
    const h = await startHarness(faults.proxy().url(TEST_DATABASE_URL), {
      DEFAULT_RATE_LIMIT_PER_MINUTE: '3',
      DATABASE_POOL_TIMEOUT_MS: '500',
    });
    try {
      // The response created by the harness was the first call of the minute.
      assert.equal((await h.author()).statusCode, 200);
      assert.equal((await h.author()).statusCode, 200);
      assert.equal((await h.author()).statusCode, 429);

      faults.proxy().setMode('refuse');
      assertRetryLater(await h.forget(), 'application/problem+json');
      assert.equal(h.runtime.deps.outages.isDown('database'), true);
      // Refused by a lease that granted nothing: Redis answered, the database was not asked.
      assert.equal((await h.author()).statusCode, 429);
      assert.equal(h.runtime.deps.outages.isDown('database'), true, 'the outage goes on');
      assert.doesNotMatch(h.runtime.logs.text(), /outage ended/);
    } finally {
      faults.proxy().setMode('pass');
      await h.close();
    }
  });

  it('answers 503 after a bounded wait when every connection of the pool is busy', async () => {
    faults.proxy().setMode('pass');
    const h = await startHarness(TEST_DATABASE_URL, {
      DATABASE_POOL_SIZE: '1',
      DATABASE_POOL_TIMEOUT_MS: '300',
      // The held statement outlasts the pool's wait, not its own deadline.
      DATABASE_STATEMENT_TIMEOUT_MS: '5000',
    });
    try {
      const held = sql`select pg_sleep(2)`.execute(h.runtime.deps.store.db);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assertRetryLater(await h.author(), 'application/vnd.api+json');
      await held;
      assert.equal((await h.author()).statusCode, 200);
      assert.doesNotMatch(h.runtime.logs.text(), /"stack"/);
    } finally {
      await h.close();
    }
  });
});
