import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestAdminApp, type TestAdminApp } from '../../helpers/test-admin-app.js';
import { TEST_DIALECT } from '../../helpers/test-runtime.js';

const FILE = {
  apiVersion: 'rpa/v1',
  environment: 'staging',
  stack: 'partners',
  clients: [{ name: 'Acme-EN_GB' }],
  applications: [
    { name: 'acme-web', clientNames: ['Acme-EN_GB'], passkeys: [{ name: 'web', api: 'response' }] },
  ],
};

describe(`admin API: configuration on ${TEST_DIALECT}`, () => {
  let t: TestAdminApp;
  let writer: string;
  let reader: string;
  before(async () => {
    t = await createTestAdminApp();
    writer = await t.bearer('tenancy:read', 'tenancy:write');
    reader = await t.bearer('tenancy:read');
  });
  after(() => t.close());

  it('plans, applies at the plan revision, and dumps, each with its scope', async () => {
    const planned = await t.call(reader, 'POST', '/staging/config/plan', { file: FILE });
    assert.equal(planned.statusCode, 200, planned.body);
    const plan = planned.json();
    assert.deepEqual(
      plan.creations.map((c: { kind: string; key: string }) => `${c.kind} ${c.key}`),
      ['client Acme-EN_GB', 'application acme-web', 'passkey acme-web/web'],
    );
    const forbidden = await t.call(reader, 'POST', '/staging/config/apply', {
      file: FILE,
      revision: plan.revision,
    });
    assert.equal(forbidden.statusCode, 403);
    const applied = await t.call(writer, 'POST', '/staging/config/apply', {
      file: FILE,
      revision: plan.revision,
    });
    assert.equal(applied.statusCode, 200, applied.body);
    const result = applied.json();
    assert.match(result.secrets.passkeys['acme-web/web'], /^rpa_pk_/);
    assert.match(result.secrets.applications['acme-web'].clientId, /^rpa_ci_/);

    const stale = await t.call(writer, 'POST', '/staging/config/apply', {
      file: FILE,
      revision: plan.revision,
    });
    assert.equal(stale.statusCode, 409);
    assert.equal(stale.json().type, '/problems/tenancy-revision-changed');

    const dumped = await t.call(reader, 'GET', '/staging/config/dump?stack=partners');
    assert.equal(dumped.statusCode, 200);
    assert.deepEqual(dumped.json().applications[0].passkeys, [
      { name: 'web', api: 'response', rateLimitPerMinute: 600, quotaPerDay: 100_000 },
    ]);
    const listed = await t.call(reader, 'GET', '/staging/passkeys');
    assert.equal(listed.json().data[0].name, 'web');
  });

  it('takes a file of thousands of partners, over the body limit of other routes, naming each limit', async () => {
    const clients = Array.from({ length: 15_000 }, (_, i) => ({ name: `partner-${i}-${'x'.repeat(80)}` }));
    const file = { ...FILE, stack: 'big', clients, applications: [] };
    assert.ok(JSON.stringify(file).length > 1_048_576);
    const planned = await t.call(reader, 'POST', '/staging/config/plan', { file });
    assert.equal(planned.statusCode, 200, planned.body.slice(0, 300));
    assert.equal(planned.json().creations.length, 15_000);
    const elsewhere = await t.call(writer, 'POST', '/staging/clients', { name: 'x'.repeat(1_100_000) });
    assert.equal(elsewhere.statusCode, 413);
    assert.match(elsewhere.json().detail, /larger than 1048576 bytes/);
  });

  it('refuses an unknown field of the file and a file of another environment', async () => {
    const bad = await t.call(reader, 'POST', '/staging/config/plan', { file: { ...FILE, extra: 1 } });
    assert.equal(bad.statusCode, 400);
    const other = await t.call(reader, 'POST', '/production/config/plan', { file: FILE });
    assert.equal(other.statusCode, 200);
    assert.match(other.json().problems[0].message, /the file is for staging, not production/);
  });
});
