import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashCredential } from '../../../src/domain/credentials.js';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import { updatePasskey } from '../../../src/services/tenancy/update-passkey.js';
import { findPasskeyByHash } from '../../../src/store/repositories/passkeys.js';
import { issueTestToken, seedTestTenant, type TestTenant } from '../../helpers/credentials.js';
import {
  createResponseHarness,
  DE,
  DE_REVIEW,
  EN,
  EN_REVIEW,
  type ResponseHarness,
} from '../../http/response/response-fixtures.js';

const SUB_PATHS = ['', '/author', '/relationships/author', '/review', '/relationships/review'];

describe('Response API access control and isolation', () => {
  let h: ResponseHarness;
  let enResponse: string;
  let deResponse: string;
  /** Application B: granted Acme-DE_DE only. */
  let other: { token: string; passkey: string };
  let staging: TestTenant;

  before(async () => {
    h = await createResponseHarness();
    enResponse = (await h.create(EN, EN_REVIEW, { department: 'D', response: 'EN answer' })).json().data.id;
    deResponse = (await h.create(DE, DE_REVIEW, { department: 'D', response: 'DE answer' })).json().data.id;
    const deps = h.t.runtime.deps;
    const b = await createApplication(deps, {
      environment: 'production',
      name: 'Other app',
      clientNames: [DE],
    });
    const pk = await createPasskey(deps, { applicationId: b.application.id, api: 'response' });
    other = { token: await issueTestToken(h.t.runtime, b.application.id, 'production'), passkey: pk.value };
    staging = await seedTestTenant(h.t.runtime, 'staging');
  });
  after(() => h.close());

  const endpoints = () => [
    { method: 'GET' as const, path: `/clientResponses/${EN}/reviews/${EN_REVIEW}` },
    {
      method: 'POST' as const,
      path: `/clientResponses/${EN}/reviews/${EN_REVIEW}`,
      body: { attributes: {} },
    },
    { method: 'POST' as const, path: '/clientResponses/reviews/-/responses', body: { reviewIds: [] } },
    ...SUB_PATHS.map((p) => ({ method: 'GET' as const, path: `/clientResponses/${enResponse}${p}` })),
    { method: 'PATCH' as const, path: `/clientResponses/${enResponse}`, body: { attributes: {} } },
    { method: 'DELETE' as const, path: `/clientResponses/${enResponse}` },
  ];

  it('answers every endpoint without a valid bearer token with 401 and a Bearer challenge', async () => {
    const expired = await issueTestToken(h.t.runtime, h.tenant.applicationId, 'production', {
      expiresAt: Date.now() - 1000,
    });
    const revoked = await issueTestToken(h.t.runtime, h.tenant.applicationId, 'production', {
      revokedAt: Date.now() - 1000,
    });
    for (const prefix of ['/response/v1', '/contentmanagement/v1']) {
      for (const e of endpoints()) {
        for (const [token, headers] of [
          [null, {}],
          [null, { authorization: 'Basic dXNlcjpwYXNz' }],
          ['rpa_at_unknown', {}],
          [expired, {}],
          [revoked, {}],
        ] as const) {
          const r = await h.call(prefix + e.path, { method: e.method, body: e.body, token, headers });
          const what = `${e.method} ${prefix}${e.path} ${token ? 'bad token' : JSON.stringify(headers)}`;
          assert.equal(r.statusCode, 401, what);
          assert.match(String(r.headers['www-authenticate']), /^Bearer /, what);
          assert.equal(r.json().httpCode, 401, what);
          assert.equal(r.json().errors[0].status, '401', what);
        }
      }
    }
    assert.equal(
      (await h.call(`/response/v1/clientResponses/${enResponse}`)).statusCode,
      200,
      'nothing deleted',
    );
  });

  it('answers a missing passkey with 400 and an unknown, revoked or wrong-API passkey with 403', async () => {
    const missing = await h.call(`/response/v1/clientResponses/${enResponse}/author`, { passkey: null });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().errors[0].source.parameter, 'passkey');

    const deps = h.t.runtime.deps;
    const spare = await createPasskey(deps, { applicationId: h.tenant.applicationId, api: 'response' });
    const spareRow = await findPasskeyByHash(deps.store.db, hashCredential(spare.value));
    await updatePasskey(deps, { passkeyId: spareRow!.id, revoke: true });

    for (const [label, passkey] of [
      ['unknown', 'rpa_pk_unknown'],
      ['privacy API', h.tenant.privacyPasskey],
      ['revoked', spare.value],
      ["another application's", other.passkey],
      ['staging', staging.responsePasskey],
    ]) {
      for (const e of endpoints()) {
        const r = await h.call(`/response/v1${e.path}`, { method: e.method, body: e.body, passkey });
        assert.equal(r.statusCode, 403, `${label} passkey on ${e.method} ${e.path}`);
        assert.equal(r.json().errors[0].code, 'DEVELOPER_INACTIVE');
      }
    }
    // The passkey must belong to the token's application, in both directions.
    const mixed = await h.call(`/response/v1/clientResponses/${deResponse}`, {
      token: other.token,
      passkey: h.tenant.responsePasskey,
    });
    assert.equal(mixed.statusCode, 403);
  });

  it("hides another tenant's responses: 404 exactly like a response that does not exist", async () => {
    const as = { token: other.token, passkey: other.passkey };
    const unknown = await h.call('/response/v1/clientResponses/00000000-0000-4000-8000-000000000000', as);
    for (const p of SUB_PATHS) {
      const r = await h.call(`/response/v1/clientResponses/${enResponse}${p}`, as);
      assert.equal(r.statusCode, 404, p);
      assert.deepEqual(r.json().errors, unknown.json().errors);
    }
    const patch = await h.call(`/response/v1/clientResponses/${enResponse}`, {
      ...as,
      method: 'PATCH',
      body: { attributes: { response: 'hijacked' } },
    });
    assert.equal(patch.statusCode, 404);
    const del = await h.call(`/response/v1/clientResponses/${enResponse}`, { ...as, method: 'DELETE' });
    assert.equal(del.statusCode, 204);
    const still = await h.call(`/response/v1/clientResponses/${enResponse}`);
    assert.equal(still.statusCode, 200);
    assert.equal(still.json().data.attributes.response, 'EN answer');
  });

  it('refuses listing and answering reviews of a client the application is not granted (403)', async () => {
    const as = { token: other.token, passkey: other.passkey };
    const list = await h.call(`/response/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`, as);
    assert.equal(list.statusCode, 403);
    assert.equal(list.json().errors[0].field, 'client');
    const create = await h.create(EN, EN_REVIEW, { department: 'D', response: 'nope' }, as);
    assert.equal(create.statusCode, 403);
    const unknownClient = await h.call(`/response/v1/clientResponses/Nobody-XX/reviews/${EN_REVIEW}`, as);
    assert.equal(unknownClient.statusCode, 403);
    assert.deepEqual(unknownClient.json().errors[0].code, list.json().errors[0].code);
    const counts = await h.call('/response/v1/clientResponses/reviews/-/responses', {
      ...as,
      method: 'POST',
      body: { reviewIds: [EN_REVIEW, DE_REVIEW] },
    });
    assert.deepEqual(counts.json().counts, [
      { reviewId: EN_REVIEW, responseCount: 0 },
      { reviewId: DE_REVIEW, responseCount: 1 },
    ]);
  });

  it('lets any application granted a client manage its responses; the author stays with the writer', async () => {
    const as = { token: other.token, passkey: other.passkey };
    const list = await h.call(`/response/v1/clientResponses/${DE}/reviews/${DE_REVIEW}`, as);
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.json().data.map((d: { id: string }) => d.id),
      [deResponse],
    );
    const patched = await h.call(`/response/v1/clientResponses/${deResponse}`, {
      ...as,
      method: 'PATCH',
      body: { attributes: { response: 'DE answer, edited by B' } },
    });
    assert.equal(patched.statusCode, 200);
    assert.equal(patched.json().data.attributes.responseSource, 'Demo application (production)');
    const own = await h.create(DE, DE_REVIEW, { department: 'D', response: 'from B' }, as);
    assert.equal(own.statusCode, 200);
    assert.equal(own.json().data.attributes.responseSource, 'Other app');
  });

  it('keeps environments apart: staging data, tokens and passkeys are invisible from production', async () => {
    const stg = { token: staging.token, passkey: staging.responsePasskey, host: 'stg.localhost:8080' };
    const created = await h.create(
      EN,
      'demo-stg-acme-en_gb-1',
      { department: 'D', response: 'staging answer' },
      stg,
    );
    assert.equal(created.statusCode, 200);
    const id = created.json().data.id;
    assert.equal(created.json().links.self, `http://stg.localhost:8080/response/v1/clientResponses/${id}`);
    const author = await h.call(`/response/v1/clientResponses/${id}/author`, stg);
    assert.equal(
      author.json().links.self,
      `http://stg.localhost:8080/response/v1/clientResponses/${id}/author`,
    );

    // Production credentials on the production host cannot see the staging response ...
    assert.equal((await h.call(`/response/v1/clientResponses/${id}`)).statusCode, 404);
    // ... nor can staging credentials see production data on the staging host.
    assert.equal((await h.call(`/response/v1/clientResponses/${enResponse}`, stg)).statusCode, 404);
    // A production review id does not exist in staging.
    const prodReview = await h.create(EN, EN_REVIEW, { department: 'D', response: 'wrong env' }, stg);
    assert.equal(prodReview.statusCode, 400);
    // A token works only on its own environment's host.
    const wrongHost = await h.call(`/response/v1/clientResponses/${id}`, { ...stg, host: 'localhost:8080' });
    assert.equal(wrongHost.statusCode, 401);
    const prodTokenOnStg = await h.call(`/response/v1/clientResponses/${enResponse}`, {
      host: 'stg.localhost:8080',
    });
    assert.equal(prodTokenOnStg.statusCode, 401);
  });
});
