import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { routePieces } from '../../helpers/route-pieces.js';
import { createTestAdminApp, type TestAdminApp } from '../../helpers/test-admin-app.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../../helpers/test-runtime.js';

describe(`the admin listener on ${TEST_DIALECT}`, () => {
  let t: TestAdminApp;
  let writer: string;
  before(async () => {
    t = await createTestAdminApp();
    writer = await t.bearer('tenancy:read', 'tenancy:write', 'audit:read');
  });
  after(() => t.close());

  it('is not reachable through the public port: /admin there is 404', async () => {
    const pub: TestApp = await createTestApp();
    try {
      for (const url of ['/admin/v1/production/clients', '/admin/v1/openapi.json', '/admin']) {
        const res = await pub.app.inject({ method: 'GET', url, headers: { authorization: writer } });
        assert.equal(res.statusCode, 404, url);
      }
    } finally {
      await pub.close();
    }
  });

  it('records the admin token as the actor of a change, and no credential in logs or the audit trail', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/production/applications',
      headers: { authorization: writer, 'idempotency-key': 'log-check' },
      payload: { name: 'Logged', clientNames: [] },
    });
    assert.equal(created.statusCode, 201);
    const { clientSecret, applicationId } = created.json();
    assert.equal(created.headers['cache-control'], 'no-store');
    const rows = await t.runtime.deps.store.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target_id', '=', applicationId)
      .execute();
    assert.equal(rows.length, 1);
    assert.match(rows[0]?.actor ?? '', /^admin-token:[0-9a-f-]{36}$/);
    const token = writer.slice('Bearer '.length);
    const everything = `${t.runtime.logs.text()}\n${JSON.stringify(
      await t.runtime.deps.store.db.selectFrom('audit_events').selectAll().execute(),
    )}`;
    for (const secret of [token, clientSecret, 'log-check']) assert.ok(!everything.includes(secret), secret);
    assert.match(t.runtime.logs.text(), /"msg":"admin request completed"/);
  });

  it('answers a retried create with the first answer, marked as replayed', async () => {
    const send = (name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/admin/v1/staging/clients',
        headers: { authorization: writer, 'idempotency-key': 'retry-1' },
        payload: { name },
      });
    const first = await send('Retried-EN_GB');
    const again = await send('Retried-EN_GB');
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.deepEqual(again.json(), first.json());
    const other = await send('Other-EN_GB');
    assert.equal(other.statusCode, 422);
    assert.equal(other.json().code, 'IDEMPOTENCY_KEY_REUSED');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/staging/clients',
      headers: { authorization: writer, 'idempotency-key': 'has space' },
      payload: { name: 'X' },
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'INVALID_HEADER');
  });

  it('serves its own OpenAPI document, without authentication, listing every status', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.equal(doc.openapi, '3.1.0');
    const create = doc.paths['/admin/v1/{environment}/applications'].post;
    assert.deepEqual(create.security, [{ adminToken: ['tenancy:write'] }]);
    for (const status of ['201', '400', '401', '403', '422', '429', '503'])
      assert.ok(create.responses[status], status);
    assert.ok(doc.components.schemas.AdminApplication);
  });

  it('has route templates with nothing to escape, which its access line writes as they are', () => {
    const pieces = routePieces(t.app);
    assert.ok(pieces.length > 10);
    for (const piece of pieces) assert.match(piece, /^[ !#-[\]-~]*$/);
  });

  it('answers an unknown admin path and a wrong method as problems', async () => {
    const missing = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/nowhere',
      headers: { authorization: writer },
    });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['content-type'], 'application/problem+json; charset=utf-8');
    const method = await t.app.inject({ method: 'DELETE', url: '/admin/v1/production/clients' });
    assert.equal(method.statusCode, 405);
    assert.match(String(method.headers.allow), /GET/);
  });
});

describe(`the admin listener behind its proxy (ADMIN_TRUST_PROXY=10.0.0.0/8) on ${TEST_DIALECT}`, () => {
  const PROXY = '10.0.0.3';
  const VICTIM = '198.51.100.77';
  let t: TestAdminApp;
  before(async () => {
    t = await createTestAdminApp({
      ADMIN_PORT: '0',
      ADMIN_TRUST_PROXY: '10.0.0.0/8',
      AUTH_FAILURE_LIMIT: '5',
      AUTH_FAILURE_ADDRESS_LIMIT: '10',
    });
  });
  after(() => t.close());

  /** A call with `forwarded` as X-Forwarded-For, through the proxy or straight from `caller`. */
  const list = (authorization: string, from: { peer: string; forwarded?: string; reqId?: string }) =>
    t.app.inject({
      method: 'GET',
      url: '/admin/v1/production/clients',
      remoteAddress: from.peer,
      headers: {
        authorization,
        ...(from.forwarded ? { 'x-forwarded-for': from.forwarded } : {}),
        ...(from.reqId ? { 'x-request-id': from.reqId } : {}),
      },
    });
  interface AdminLine {
    msg: string;
    reqId?: string;
    status: number;
    error?: string;
    actor?: string;
    req?: { method: string; url: string; remoteAddress?: string };
  }
  const lineOf = (reqId: string) =>
    t.runtime.logs.lines
      .map((l) => JSON.parse(l) as AdminLine)
      .find((l) => l.msg === 'admin request completed' && l.reqId === reqId);

  it("names the caller's address on its access line, refusals and 429s included", async () => {
    const good = await t.bearer('tenancy:read');
    await list('Bearer rpa_adm_wrong', { peer: '203.0.113.50', forwarded: VICTIM, reqId: 'adm-1' });
    await list('Bearer rpa_adm_wrong', { peer: PROXY, forwarded: `${VICTIM}, 203.0.113.51`, reqId: 'adm-2' });
    await list(good, { peer: PROXY, forwarded: '203.0.113.52', reqId: 'adm-3' });
    const refused = lineOf('adm-1');
    assert.equal(refused?.status, 401);
    assert.equal(refused?.error, 'INVALID_TOKEN');
    assert.equal(refused?.req?.remoteAddress, '203.0.113.50');
    assert.equal(refused?.req?.method, 'GET');
    assert.equal(refused?.req?.url, '/admin/v1/production/clients');
    assert.equal(lineOf('adm-2')?.req?.remoteAddress, '203.0.113.51');
    const served = lineOf('adm-3');
    assert.equal(served?.status, 200);
    assert.equal(served?.req?.remoteAddress, '203.0.113.52');
    assert.match(served?.actor ?? '', /^admin-token:/);
  });

  it('counts a guesser rotating X-Forwarded-For against its own address, never the one it names', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 15; i += 1) {
      const from = { peer: PROXY, forwarded: `192.0.2.${i + 1}, 203.0.113.53`, reqId: `adm-guess-${i}` };
      codes.push((await list(`Bearer rpa_adm_guess${i}`, from)).statusCode);
    }
    assert.deepEqual(codes, [
      ...Array.from({ length: 10 }, () => 401),
      ...Array.from({ length: 5 }, () => 429),
    ]);
    const throttled = lineOf('adm-guess-14');
    assert.equal(throttled?.error, 'TOO_MANY_FAILED_ATTEMPTS');
    assert.equal(throttled?.req?.remoteAddress, '203.0.113.53');
    const named = await list(await t.bearer('tenancy:read'), { peer: PROXY, forwarded: '192.0.2.1' });
    assert.equal(named.statusCode, 200, named.body);
  });
});

describe(`the admin listener's access lines under ACCESS_LOG on ${TEST_DIALECT}`, () => {
  /** The request ids of the admin access lines written for these calls (token, request id). */
  async function logged(t: TestAdminApp, calls: [string, string][]): Promise<string[]> {
    for (const [authorization, reqId] of calls)
      await t.call(authorization, 'GET', '/production/clients', undefined, { 'x-request-id': reqId });
    const ids = new Set(calls.map(([, reqId]) => reqId));
    return t.runtime.logs.lines
      .map((l) => JSON.parse(l) as { msg: string; reqId: string })
      .filter((l) => l.msg === 'admin request completed' && ids.has(l.reqId))
      .map((l) => l.reqId);
  }

  for (const [env, expected] of [
    [{ ACCESS_LOG: 'errors' }, ['adm-401']],
    [{ ACCESS_LOG: 'off' }, []],
    // Its calls are few and each an operator's: never thinned.
    [{ ACCESS_LOG_SAMPLE: '0' }, ['adm-200', 'adm-401']],
  ] as const) {
    it(`${JSON.stringify(env)}: ${expected.join(', ') || 'no line'}`, async () => {
      const t = await createTestAdminApp({ ...env });
      try {
        const reader = await t.bearer('tenancy:read');
        assert.deepEqual(
          await logged(t, [
            [reader, 'adm-200'],
            ['Bearer rpa_adm_wrong', 'adm-401'],
          ]),
          expected,
        );
      } finally {
        await t.close();
      }
    });
  }
});
