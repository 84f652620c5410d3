import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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
