import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestAdminApp, type TestAdminApp } from '../../helpers/test-admin-app.js';
import { TEST_DIALECT } from '../../helpers/test-runtime.js';

describe(`admin API: tenancy on ${TEST_DIALECT}`, () => {
  let t: TestAdminApp;
  let auth: string;
  before(async () => {
    t = await createTestAdminApp();
    auth = await t.bearer('tenancy:read', 'tenancy:write');
  });
  after(() => t.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.call(auth, method, url, payload);

  it('adds clients per environment and refuses a duplicate name or a bad one', async () => {
    const added = await call('POST', '/production/clients', { name: 'Acme-EN_GB' });
    assert.equal(added.statusCode, 201);
    assert.deepEqual(Object.keys(added.json()).sort(), ['createdAt', 'environment', 'id', 'name']);
    assert.equal((await call('POST', '/staging/clients', { name: 'Acme-EN_GB' })).statusCode, 201);
    const duplicate = await call('POST', '/production/clients', { name: 'Acme-EN_GB' });
    assert.equal(duplicate.statusCode, 409);
    assert.equal((await call('POST', '/production/clients', { name: 'no spaces' })).statusCode, 400);
    assert.equal((await call('POST', '/production/clients', { name: 'X', extra: 1 })).statusCode, 400);
    assert.equal((await call('POST', '/testing/clients', { name: 'X' })).statusCode, 400);
    const listed = await call('GET', '/production/clients');
    assert.deepEqual(
      listed.json().data.map((c: { name: string }) => c.name),
      ['Acme-EN_GB'],
    );
  });

  it('creates an application showing its secret once, reads it by id or client id, in its environment only', async () => {
    const created = await call('POST', '/production/applications', {
      name: 'Partner',
      clientNames: ['Acme-EN_GB'],
    });
    assert.equal(created.statusCode, 201);
    const app = created.json();
    assert.match(app.clientSecret, /^rpa_cs_/);
    assert.deepEqual(app.clientNames, ['Acme-EN_GB']);
    for (const ref of [app.applicationId, app.clientId]) {
      const read = await call('GET', `/production/applications/${ref}`);
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().clientSecret, undefined);
      assert.equal(read.json().applicationId, app.applicationId);
    }
    const elsewhere = await call('GET', `/staging/applications/${app.applicationId}`);
    assert.equal(elsewhere.statusCode, 404);
    assert.match(elsewhere.json().detail, /in staging/);
    const unknownClient = await call('POST', '/production/applications', {
      name: 'P',
      clientNames: ['Nope'],
    });
    assert.equal(unknownClient.statusCode, 400);
    assert.equal(unknownClient.json().code, 'UNKNOWN_CLIENT_NAME');
    const secretAsRef = await call('GET', `/production/applications/${app.clientSecret}`);
    assert.equal(secretAsRef.statusCode, 400);
    assert.ok(!secretAsRef.json().detail.includes(app.clientSecret));
  });

  it('rotates and retires secrets, then revokes the application', async () => {
    const { applicationId, secretIds } = (
      await call('POST', '/production/applications', { name: 'Rotating', clientNames: [] })
    ).json();
    const rotated = await call('POST', `/production/applications/${applicationId}/secrets`);
    assert.equal(rotated.statusCode, 201);
    assert.match(rotated.json().clientSecret, /^rpa_cs_/);
    assert.equal((await call('POST', `/production/applications/${applicationId}/secrets`)).statusCode, 409);
    const retired = await call('POST', `/production/applications/${applicationId}/retire-secret`, {});
    assert.deepEqual(retired.json(), { applicationId, retiredSecretId: secretIds[0] });
    const last = await call('POST', `/production/applications/${applicationId}/retire-secret`, {
      secretId: rotated.json().secretId,
    });
    assert.equal(last.statusCode, 409);
    const revoked = await call('POST', `/production/applications/${applicationId}/revoke`);
    assert.equal(revoked.statusCode, 200);
    assert.equal(revoked.json().status, 'revoked');
    assert.ok(Date.parse(revoked.json().revokedAt) > 0);
    assert.equal((await call('POST', `/production/applications/${applicationId}/secrets`)).statusCode, 409);
    assert.equal((await call('POST', '/production/applications/nope/revoke')).statusCode, 404);
  });

  it('pages applications with next links in the body and a Link header', async () => {
    for (let i = 0; i < 5; i++)
      await call('POST', '/staging/applications', { name: `Paged ${i}`, clientNames: [] });
    const { items, urls } = await t.pages<{ name: string }>(auth, '/staging/applications?limit=2');
    assert.deepEqual(
      items.map((a) => a.name),
      ['Paged 0', 'Paged 1', 'Paged 2', 'Paged 3', 'Paged 4'],
    );
    assert.equal(urls.length, 3);
    const bad = await call('GET', '/staging/applications?cursor=forged');
    assert.equal(bad.statusCode, 400);
    assert.equal((await call('GET', '/staging/applications?limit=0')).statusCode, 400);
  });
});
