import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { seedTestTenant, type TestTenant } from '../helpers/credentials.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../helpers/test-runtime.js';

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
    // The line is written without the redaction paths (accessLogger): these fields and no others.
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

  it('never holds a credential', () => {
    const logs = t.runtime.logs.text();
    for (const secret of [tenant.clientSecret, tenant.token, tenant.responsePasskey, tenant.privacyPasskey]) {
      assert.ok(!logs.includes(secret), 'a credential was logged');
    }
  });
});
