import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import { revokeApplication } from '../../../src/services/tenancy/revoke-application.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { pending } from '../../helpers/pending.js';
import { createTestApp, type TestApp } from '../../helpers/test-runtime.js';
import { basicAuth, postForm, requestToken, TOKEN_PATH } from './oauth-fixtures.js';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);

function assertOAuthError(res: LightMyRequestResponse, status: number, error: string): void {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers.pragma, 'no-cache');
  const body = res.json();
  assert.equal(body.error, error);
  assert.equal(typeof body.error_description, 'string');
  assert.ok(body.error_description.length > 0);
}

describe('POST /auth/v1/oauth2/token', () => {
  let t: TestApp;
  let prod: DemoCredentials;
  let stg: DemoCredentials;
  const seen = new Set<string>();

  before(async () => {
    t = await createTestApp({ LOG_LEVEL: 'trace' }, { clock: () => NOW });
    prod = await seedDemo(t.runtime.deps, { environment: 'production' });
    stg = await seedDemo(t.runtime.deps, { environment: 'staging' });
    for (const c of [prod, stg])
      for (const v of [c.clientSecret, c.responsePasskey, c.privacyPasskey]) seen.add(v);
  });
  after(() => t.close());

  const ok = async (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 200, res.body);
    seen.add(res.json().access_token);
    return res.json();
  };

  describe('success', () => {
    it('issues a token with client_secret_post, shaped as the seed shows', async () => {
      const res = await requestToken(t.app, prod.clientId, prod.clientSecret);
      const body = await ok(res);
      assert.deepEqual(Object.keys(body).sort(), [
        'access_token',
        'expires_at',
        'expires_in',
        'refresh_token',
        'scope',
        'token_type',
      ]);
      // Opaque, within RFC 6750's b64token characters, behind the prefix scanners look for.
      assert.match(body.access_token, /^rpa_at_[A-Za-z0-9_-]+$/);
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.expires_in, 3600);
      assert.equal(body.expires_at, NOW + 3_600_000);
      assert.equal(body.scope, 'offline_access');
      assert.equal(body.refresh_token, 'null');
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers.pragma, 'no-cache');
      const principal = await t.runtime.http.tokens.verify(body.access_token, 'production');
      assert.equal(principal.applicationId, prod.applicationId);
      assert.equal(principal.clientId, prod.clientId);
    });

    it('issues a token with client_secret_basic, form-decoding both halves (RFC 6749 Appendix B)', async () => {
      await ok(
        await postForm(t.app, TOKEN_PATH, {
          body: { grant_type: 'client_credentials' },
          headers: { authorization: basicAuth(prod.clientId, prod.clientSecret) },
        }),
      );
      // Percent-encoded characters that need no encoding must decode to the same credentials.
      const encoded = `%${prod.clientId.charCodeAt(0).toString(16)}${prod.clientId.slice(1)}`;
      const raw = Buffer.from(`${encoded}:${prod.clientSecret}`).toString('base64');
      await ok(
        await postForm(t.app, TOKEN_PATH, {
          body: { grant_type: 'client_credentials' },
          headers: { authorization: `basic ${raw}` },
        }),
      );
    });

    it('accepts Basic credentials with the same client_id repeated in the body', async () => {
      await ok(
        await postForm(t.app, TOKEN_PATH, {
          body: { grant_type: 'client_credentials', client_id: prod.clientId },
          headers: { authorization: basicAuth(prod.clientId, prod.clientSecret) },
        }),
      );
    });

    it('accepts scope offline_access, a UTF-8 charset, empty and unknown parameters', async () => {
      await ok(
        await requestToken(t.app, prod.clientId, prod.clientSecret, { extra: { scope: 'offline_access' } }),
      );
      await ok(
        await requestToken(t.app, prod.clientId, prod.clientSecret, {
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        }),
      );
      // RFC 6749 §3.2: a parameter without a value counts as omitted; unknown ones are ignored.
      await ok(
        await postForm(t.app, TOKEN_PATH, {
          body: `grant_type=client_credentials&scope=&audience=x&client_id=${prod.clientId}&client_secret=${prod.clientSecret}&&`,
        }),
      );
    });

    it('issues staging tokens on the staging host, bound to staging', async () => {
      const body = await ok(
        await requestToken(t.app, stg.clientId, stg.clientSecret, { host: 'stg.localhost:8080' }),
      );
      const principal = await t.runtime.http.tokens.verify(body.access_token, 'staging');
      assert.equal(principal.applicationId, stg.applicationId);
      await assert.rejects(pending(t.runtime.http.tokens.verify(body.access_token, 'production')), {
        code: 'INVALID_TOKEN',
      });
    });

    it('issues tokens to an application without passkeys (nothing to charge)', async () => {
      const bare = await createApplication(t.runtime.deps, {
        environment: 'production',
        name: 'No passkeys',
        clientNames: ['Acme-EN_GB'],
      });
      seen.add(bare.clientSecret);
      await ok(await requestToken(t.app, bare.application.clientId, bare.clientSecret));
    });
  });

  describe('RFC 6749 §5.2 errors', () => {
    it('answers server_error in the OAuth shape when the signing key cannot be read', async () => {
      const keys = t.runtime.deps.cache.signingKeys;
      const { current } = keys;
      keys.current = () => Promise.reject(new Error('the signing keys could not be read'));
      try {
        const res = await requestToken(t.app, prod.clientId, prod.clientSecret);
        assertOAuthError(res, 500, 'server_error');
        assert.doesNotMatch(res.body, /signing keys could not be read|access_token/);
      } finally {
        keys.current = current;
      }
      await ok(await requestToken(t.app, prod.clientId, prod.clientSecret));
    });

    it('refuses other content types and charsets with invalid_request', async () => {
      const json = await t.app.inject({
        method: 'POST',
        url: TOKEN_PATH,
        headers: { host: 'localhost:8080', 'content-type': 'application/json' },
        payload: {
          grant_type: 'client_credentials',
          client_id: prod.clientId,
          client_secret: prod.clientSecret,
        },
      });
      assertOAuthError(json, 400, 'invalid_request');
      const none = await t.app.inject({
        method: 'POST',
        url: TOKEN_PATH,
        headers: { host: 'localhost:8080' },
      });
      assertOAuthError(none, 400, 'invalid_request');
      const latin1 = await requestToken(t.app, prod.clientId, prod.clientSecret, {
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1' },
      });
      assertOAuthError(latin1, 400, 'invalid_request');
    });

    it('answers a missing grant_type or an empty body with invalid_request', async () => {
      assertOAuthError(await postForm(t.app, TOKEN_PATH, { body: '' }), 400, 'invalid_request');
      const res = await postForm(t.app, TOKEN_PATH, {
        body: { client_id: prod.clientId, client_secret: prod.clientSecret },
      });
      assertOAuthError(res, 400, 'invalid_request');
      assert.match(res.json().error_description, /grant_type/);
    });

    it('answers another grant type with unsupported_grant_type', async () => {
      for (const grant of ['password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS']) {
        const res = await requestToken(t.app, prod.clientId, prod.clientSecret, {
          extra: { grant_type: grant },
        });
        assertOAuthError(res, 400, 'unsupported_grant_type');
      }
    });

    it('answers any scope but offline_access with invalid_scope', async () => {
      for (const scope of ['read', 'offline_access write', 'openid']) {
        const res = await requestToken(t.app, prod.clientId, prod.clientSecret, { extra: { scope } });
        assertOAuthError(res, 400, 'invalid_scope');
      }
    });

    it('refuses repeated parameters, even with the same value (RFC 6749 §3.2)', async () => {
      const base = `client_id=${prod.clientId}&client_secret=${prod.clientSecret}`;
      for (const body of [
        `grant_type=client_credentials&grant_type=client_credentials&${base}`,
        `grant_type=client_credentials&${base}&client_id=${prod.clientId}`,
        `grant_type=client_credentials&${base}&client_secret=other`,
        `grant_type=client_credentials&${base}&scope=offline_access&scope=offline_access`,
        `grant_type=client_credentials&${base}&client%5Fid=${prod.clientId}`,
      ]) {
        const res = await postForm(t.app, TOKEN_PATH, { body });
        assertOAuthError(res, 400, 'invalid_request');
        assert.match(res.json().error_description, /repeated/);
      }
    });

    it('refuses malformed percent-encoding', async () => {
      const res = await postForm(t.app, TOKEN_PATH, { body: 'grant_type=client%ZZcredentials' });
      assertOAuthError(res, 400, 'invalid_request');
    });

    it('refuses two authentication methods at once, or a client_id that contradicts Basic', async () => {
      const both = await postForm(t.app, TOKEN_PATH, {
        body: {
          grant_type: 'client_credentials',
          client_id: prod.clientId,
          client_secret: prod.clientSecret,
        },
        headers: { authorization: basicAuth(prod.clientId, prod.clientSecret) },
      });
      assertOAuthError(both, 400, 'invalid_request');
      const mismatch = await postForm(t.app, TOKEN_PATH, {
        body: { grant_type: 'client_credentials', client_id: stg.clientId },
        headers: { authorization: basicAuth(prod.clientId, prod.clientSecret) },
      });
      assertOAuthError(mismatch, 400, 'invalid_request');
    });

    it('refuses malformed Basic credentials with invalid_request', async () => {
      for (const authorization of [
        'Basic',
        'Basic !!!',
        `Basic ${Buffer.from('no-colon').toString('base64')}`,
        `Basic ${Buffer.from(`${prod.clientId}:`).toString('base64')}`,
        `Basic ${Buffer.from([0xff, 0x3a, 0xfe]).toString('base64')}`,
      ]) {
        const res = await postForm(t.app, TOKEN_PATH, {
          body: { grant_type: 'client_credentials' },
          headers: { authorization },
        });
        assertOAuthError(res, 400, 'invalid_request');
      }
    });

    it('answers missing client authentication with 401 invalid_client and a Basic challenge', async () => {
      const cases = [
        postForm(t.app, TOKEN_PATH, { body: { grant_type: 'client_credentials' } }),
        postForm(t.app, TOKEN_PATH, { body: { grant_type: 'client_credentials', client_id: prod.clientId } }),
        postForm(t.app, TOKEN_PATH, {
          body: { grant_type: 'client_credentials' },
          headers: { authorization: 'Bearer rpa_at_whatever' },
        }),
      ];
      for (const res of await Promise.all(cases)) {
        assertOAuthError(res, 401, 'invalid_client');
        assert.match(String(res.headers['www-authenticate']), /^Basic realm="/);
      }
      const secretOnly = await postForm(t.app, TOKEN_PATH, {
        body: { grant_type: 'client_credentials', client_secret: prod.clientSecret },
      });
      assertOAuthError(secretOnly, 400, 'invalid_request');
    });

    it('answers an unknown client, a wrong secret and the other environment identically', async () => {
      const answers = await Promise.all([
        requestToken(t.app, 'rpa_ci_unknown', prod.clientSecret),
        requestToken(t.app, prod.clientId, `${prod.clientSecret}x`),
        requestToken(t.app, prod.clientId, stg.clientSecret),
        // A staging client on the production host, and the other way round.
        requestToken(t.app, stg.clientId, stg.clientSecret),
        requestToken(t.app, prod.clientId, prod.clientSecret, { host: 'stg.localhost:8080' }),
        postForm(t.app, TOKEN_PATH, {
          body: { grant_type: 'client_credentials' },
          headers: { authorization: basicAuth(prod.clientId, 'wrong') },
        }),
      ]);
      const first = answers[0] as LightMyRequestResponse;
      assertOAuthError(first, 401, 'invalid_client');
      for (const res of answers) {
        assert.equal(res.statusCode, 401);
        assert.equal(res.body, first.body);
        assert.equal(res.headers['www-authenticate'], first.headers['www-authenticate']);
      }
    });

    it('refuses an unknown, inactive or foreign passkey with invalid_request', async () => {
      for (const passkey of ['rpa_pk_unknown', stg.responsePasskey]) {
        const res = await requestToken(t.app, prod.clientId, prod.clientSecret, {
          query: `passkey=${passkey}`,
        });
        assertOAuthError(res, 400, 'invalid_request');
        assert.match(res.json().error_description, /passkey/);
      }
      const empty = await requestToken(t.app, prod.clientId, prod.clientSecret, { query: 'passkey=' });
      assertOAuthError(empty, 400, 'invalid_request');
      const twice = await requestToken(t.app, prod.clientId, prod.clientSecret, {
        query: `passkey=${prod.responsePasskey}&passkey=${prod.privacyPasskey}`,
      });
      assertOAuthError(twice, 400, 'invalid_request');
    });

    it('answers a revoked application with unauthorized_client, and a wrong secret still with invalid_client', async () => {
      const gone = await seedDemo(t.runtime.deps, { environment: 'production' });
      seen.add(gone.clientSecret);
      await revokeApplication(t.runtime.deps, { applicationId: gone.applicationId });
      assertOAuthError(
        await requestToken(t.app, gone.clientId, gone.clientSecret),
        400,
        'unauthorized_client',
      );
      assertOAuthError(await requestToken(t.app, gone.clientId, 'wrong'), 401, 'invalid_client');
    });

    it('answers other methods and paths under /auth/v1 in the OAuth shape', async () => {
      // RFC 6749 §3.2: the token endpoint takes POST only; any other method is 405 (RFC 9110 §15.5.6).
      const get = await t.app.inject({ url: TOKEN_PATH, headers: { host: 'localhost:8080' } });
      assert.equal(get.statusCode, 405);
      assert.equal(get.headers.allow, 'POST');
      assert.equal(get.json().error, 'invalid_request');
      const unknown = await t.app.inject({ url: '/auth/v1/nope', headers: { host: 'localhost:8080' } });
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().error, 'invalid_request');
    });
  });

  it('never logs a secret, token or passkey', async () => {
    await requestToken(t.app, prod.clientId, prod.clientSecret, {
      query: `passkey=${prod.privacyPasskey}`,
    }).then(ok);
    const logs = t.runtime.logs.text();
    assert.ok(logs.includes('/auth/v1/oauth2/token'), 'requests are logged');
    assert.ok(seen.size > 10);
    for (const value of seen)
      assert.ok(!logs.includes(value), `a credential ending ${value.slice(-4)} was logged`);
  });
});
