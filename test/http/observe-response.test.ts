import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildServer } from '../../src/http/build-server.js';
import type { HttpDeps } from '../../src/http/http-deps.js';
import { observeResponse } from '../../src/http/observe-response.js';
import { createLogger } from '../../src/logger.js';
import { seedTestTenant, type TestTenant } from '../helpers/credentials.js';
import { routePieces } from '../helpers/route-pieces.js';
import { createTestApp, createTestRuntime, TEST_DIALECT, type TestApp } from '../helpers/test-runtime.js';

interface AccessLine {
  msg: string;
  reqId: string;
  route?: string;
  status: number;
  ms: number;
  applicationId?: string;
  passkeyId?: string;
  error?: string;
  req: { method: string; url: string };
}

const host = { host: 'localhost' };

describe(`the access log on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  let tenant: TestTenant;

  before(async () => {
    t = await createTestApp();
    tenant = await seedTestTenant(t.runtime);
  });
  after(() => t.close());

  /** Sends a request with a known id and returns every access-log line written for it. */
  async function linesFor(
    reqId: string,
    request: { method?: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: string },
  ): Promise<AccessLine[]> {
    const r = await t.app.inject({
      ...request,
      headers: { ...host, ...request.headers, 'x-request-id': reqId },
    });
    assert.equal(r.headers['x-request-id'], reqId);
    return t.runtime.logs.lines
      .map((l) => JSON.parse(l) as AccessLine)
      .filter((l) => l.reqId === reqId && l.msg === 'request completed');
  }

  const bearer = () => ({ authorization: `Bearer ${tenant.token}` });

  it("writes one line per request with route, status, duration and the caller's ids", async () => {
    const url = `/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1?passkey=${tenant.responsePasskey}`;
    const lines = await linesFor('access-ok-1', { url, headers: bearer() });
    assert.equal(lines.length, 1, 'exactly one line');
    const [line] = lines as [AccessLine];
    assert.equal(line.route, '/response/v1/clientResponses/:client/reviews/:reviewId');
    assert.equal(line.status, 200);
    assert.equal(typeof line.ms, 'number');
    assert.ok(line.ms >= 0);
    assert.equal(line.applicationId, tenant.applicationId);
    assert.equal(line.passkeyId, tenant.responsePasskeyId);
    assert.equal(line.error, undefined);
    assert.equal(line.req.method, 'GET');
    assert.match(line.req.url, /passkey=\[REDACTED\]/);
    // A line of fixed fields (access-line.ts): these and no others.
    assert.deepEqual(Object.keys(line).sort(), [
      'applicationId',
      'level',
      'ms',
      'msg',
      'passkeyId',
      'req',
      'reqId',
      'route',
      'service',
      'status',
      'time',
    ]);
    assert.deepEqual(Object.keys(line.req).sort(), ['host', 'method', 'remoteAddress', 'url']);
  });

  it('names the error code of a 4xx', async () => {
    const missing = await linesFor('access-404-1', {
      url: `/response/v1/clientResponses/00000000-0000-4000-8000-000000000000?passkey=${tenant.responsePasskey}`,
      headers: bearer(),
    });
    assert.equal(missing.length, 1);
    assert.equal(missing[0]?.status, 404);
    assert.equal(missing[0]?.error, 'RESPONSE_NOT_FOUND');
    assert.equal(missing[0]?.applicationId, tenant.applicationId);

    const badToken = await linesFor('access-401-1', {
      url: `/privacy/v1/forgetRequests?passkey=${tenant.privacyPasskey}`,
      headers: { authorization: 'Bearer rpa_at_forged' },
    });
    assert.equal(badToken[0]?.status, 401);
    assert.equal(badToken[0]?.error, 'INVALID_TOKEN');
    assert.equal(badToken[0]?.applicationId, undefined, 'no application for a token that is not one');

    const badClient = await linesFor('access-401-2', {
      method: 'POST',
      url: '/auth/v1/oauth2/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${tenant.clientId}:rpa_cs_wrong`).toString('base64')}`,
      },
      payload: 'grant_type=client_credentials',
    });
    assert.equal(badClient[0]?.route, '/auth/v1/oauth2/token');
    assert.equal(badClient[0]?.error, 'INVALID_CLIENT');

    const unmatched = await linesFor('access-404-2', { url: '/nowhere' });
    assert.equal(unmatched[0]?.route, undefined);
    assert.equal(unmatched[0]?.error, 'NOT_FOUND');
  });

  it('names the application of a token request', async () => {
    const lines = await linesFor('access-token-1', {
      method: 'POST',
      url: '/auth/v1/oauth2/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${tenant.clientId}:${tenant.clientSecret}`).toString('base64')}`,
      },
      payload: 'grant_type=client_credentials',
    });
    assert.equal(lines[0]?.status, 200);
    assert.equal(lines[0]?.applicationId, tenant.applicationId);
    assert.equal(lines[0]?.passkeyId, tenant.responsePasskeyId, 'the default passkey was charged');
  });

  it('has route templates with nothing to escape, which the line writes as they are', () => {
    const pieces = routePieces(t.app);
    assert.ok(pieces.length > 10);
    for (const piece of pieces) assert.match(piece, /^[ !#-[\]-~]*$/);
  });

  it('never holds a credential', () => {
    const logs = t.runtime.logs.text();
    for (const secret of [tenant.clientSecret, tenant.token, tenant.responsePasskey, tenant.privacyPasskey]) {
      assert.ok(!logs.includes(secret), 'a credential was logged');
    }
  });
});

describe(`which answers get an access line (ACCESS_LOG, ACCESS_LOG_SAMPLE) on ${TEST_DIALECT}`, () => {
  /** Sends each request (a URL and its request id) and returns the ids that got an access line. */
  async function logged(t: TestApp, requests: [string, string][]): Promise<string[]> {
    for (const [url, reqId] of requests)
      await t.app.inject({ url, headers: { ...host, 'x-request-id': reqId } });
    const ids = new Set(requests.map(([, reqId]) => reqId));
    return t.runtime.logs.lines
      .map((l) => JSON.parse(l) as AccessLine)
      .filter((l) => l.msg === 'request completed' && ids.has(l.reqId))
      .map((l) => l.reqId);
  }
  const REQUESTS: [string, string][] = [
    ['/healthz', 'mode-200'],
    ['/nowhere', 'mode-404'],
    ['/response/v1/clientResponses/00000000-0000-4000-8000-000000000000', 'mode-401'],
  ];

  for (const [env, expected] of [
    [{ ACCESS_LOG: 'errors' }, ['mode-404', 'mode-401']],
    [{ ACCESS_LOG_SAMPLE: '0' }, ['mode-404', 'mode-401']],
    [{ ACCESS_LOG: 'off' }, []],
    [{ ACCESS_LOG_SAMPLE: '1' }, ['mode-200', 'mode-404', 'mode-401']],
  ] as const) {
    it(`${JSON.stringify(env)}: ${expected.length} of 3 lines, and every answer counted in the metrics`, async () => {
      const t = await createTestApp({ ...env });
      try {
        assert.deepEqual(await logged(t, REQUESTS), expected);
        const scrape = await t.runtime.deps.metrics.scrape();
        const counted = (route: string, statusClass: string) =>
          Number(
            scrape
              .split('\n')
              .find((l) =>
                l.startsWith(
                  `rpa_http_requests_total{route="${route}",method="GET",status_class="${statusClass}"}`,
                ),
              )
              ?.split(' ')
              .at(-1),
          );
        assert.equal(counted('/healthz', '2xx'), 1);
        assert.equal(counted('unmatched', '4xx'), 1);
        assert.equal(counted('/response/v1/clientResponses/:responseGuid', '4xx'), 1);
      } finally {
        await t.close();
      }
    });
  }

  it('names the trace of a traced request, and leaves the member out of an untraced one', async () => {
    const runtime = await createTestRuntime();
    const app = await buildServer(runtime.http);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.headers['x-test-traced']) request.traceId = traceId;
      done();
    });
    await app.ready();
    try {
      for (const [reqId, traced] of [
        ['traced-1', true],
        ['untraced-1', false],
      ] as const)
        await app.inject({
          url: '/healthz',
          headers: { ...host, 'x-request-id': reqId, ...(traced ? { 'x-test-traced': '1' } : {}) },
        });
      const lines = runtime.logs.lines.map((l) => JSON.parse(l) as AccessLine & { traceId?: string });
      assert.equal(lines.find((l) => l.reqId === 'traced-1')?.traceId, traceId);
      const untraced = lines.find((l) => l.reqId === 'untraced-1');
      assert.ok(untraced && !('traceId' in untraced));
    } finally {
      await app.close();
      await runtime.close();
    }
  });
});

describe('the observe step', () => {
  it('reads the duration once, for the metric and the access line alike', () => {
    const lines: string[] = [];
    const observed: number[] = [];
    const deps = {
      config: loadConfig({}),
      logger: createLogger('info', { write: (line: string) => void lines.push(line) }),
      metrics: {
        httpRequest: (_route: unknown, _method: unknown, _status: unknown, s: number) => observed.push(s),
      },
    } as unknown as HttpDeps;
    const request = {
      routeOptions: { url: '/healthz' },
      method: 'GET',
      id: 'once-1',
      url: '/healthz',
      host: 'localhost',
      ip: '127.0.0.1',
      errorCode: null,
      traceId: null,
      principal: null,
      oauthClient: null,
      passkey: null,
    } as unknown as FastifyRequest;
    let reads = 0;
    // A clock that moves at each reading: a second reading would show as a second figure.
    const reply = {
      statusCode: 200,
      get elapsedTime() {
        reads += 1;
        return 12.3456789 * reads;
      },
    } as unknown as FastifyReply;
    let done = 0;
    observeResponse(deps)(request, reply, () => {
      done += 1;
    });
    assert.equal(reads, 1);
    assert.equal(done, 1);
    assert.deepEqual(observed, [12.3456789 / 1000]);
    assert.equal((JSON.parse(lines[0] as string) as AccessLine).ms, 12.346);
  });
});
