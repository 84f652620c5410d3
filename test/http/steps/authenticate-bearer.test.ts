import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { hashCredential } from '../../../src/domain/credentials.js';
import type { Passkey } from '../../../src/domain/passkey.js';
import { buildServer } from '../../../src/http/build-server.js';
import type { PasskeyLimiter } from '../../../src/services/limits/create-passkey-limiter.js';
import type { LimitDecision } from '../../../src/services/limits/limit-decision.js';
import { retireApplicationSecret } from '../../../src/services/tenancy/retire-application-secret.js';
import { revokeApplication } from '../../../src/services/tenancy/revoke-application.js';
import { rotateApplicationSecret } from '../../../src/services/tenancy/rotate-application-secret.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { updatePasskey } from '../../../src/services/tenancy/update-passkey.js';
import { findPasskeyByHash } from '../../../src/store/repositories/passkeys.js';
import { pending } from '../../helpers/pending.js';
import { createTestRuntime, type TestRuntime } from '../../helpers/test-runtime.js';
import { basicAuth, postForm, REVOKE_PATH, requestToken, TOKEN_PATH } from '../auth/oauth-fixtures.js';

const CACHE_TTL_MS = 5000;
const TTL_SECONDS = 120;

/** Records every charge; refuses while `refuse` is set, as an exhausted passkey would. */
class RecordingLimiter implements PasskeyLimiter {
  readonly charged: string[] = [];
  refuse: LimitDecision | null = null;
  /** Holds no allowance: every charge is answered through a promise. */
  async consume(passkey: Passkey): Promise<LimitDecision> {
    this.charged.push(passkey.id);
    return this.refuse ?? { allowed: true, headers: { ratelimit: '"default";r=9;t=60' } };
  }
  async close() {}
}

describe('token lifecycle', () => {
  let now = Date.UTC(2026, 10, 23, 12, 0, 0);
  let runtime: TestRuntime;
  let app: FastifyInstance;
  const limiter = new RecordingLimiter();
  let demo: DemoCredentials;
  let other: DemoCredentials;

  const passkeyId = async (value: string) =>
    ((await findPasskeyByHash(runtime.deps.store.db, hashCredential(value))) as Passkey).id;
  const token = async (creds: { clientId: string; clientSecret: string }) => {
    const res = await requestToken(app, creds.clientId, creds.clientSecret);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().access_token as string;
  };
  const verify = (value: string, environment: 'production' | 'staging' = 'production') =>
    runtime.http.tokens.verify(value, environment);
  const author = (value: string | null, guid: string, host = 'localhost:8080') =>
    app.inject({
      url: `/response/v1/clientResponses/${guid}/author?passkey=${demo.responsePasskey}`,
      headers: { host, ...(value === null ? {} : { authorization: `Bearer ${value}` }) },
    });

  before(async () => {
    runtime = await createTestRuntime(
      { TOKEN_TTL_SECONDS: String(TTL_SECONDS), TOKEN_CACHE_TTL_MS: String(CACHE_TTL_MS) },
      { clock: () => now },
    );
    app = await buildServer({ ...runtime.http, limiter });
    await app.ready();
    demo = await seedDemo(runtime.deps, { environment: 'production' });
    other = await seedDemo(runtime.deps, { environment: 'production' });
  });
  after(async () => {
    await app.close();
    await runtime.close();
  });

  describe('passkey charging (seed §5.5)', () => {
    it("charges the application's default passkey, or the one named, and sets its headers", async () => {
      limiter.charged.length = 0;
      const res = await requestToken(app, demo.clientId, demo.clientSecret);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers.ratelimit, '"default";r=9;t=60');
      const named = await requestToken(app, demo.clientId, demo.clientSecret, {
        query: `passkey=${demo.privacyPasskey}`,
      });
      assert.equal(named.statusCode, 200);
      assert.deepEqual(limiter.charged, [
        await passkeyId(demo.responsePasskey),
        await passkeyId(demo.privacyPasskey),
      ]);
    });

    it('charges nothing when authentication fails', async () => {
      limiter.charged.length = 0;
      const res = await requestToken(app, demo.clientId, 'wrong', {
        query: `passkey=${demo.privacyPasskey}`,
      });
      assert.equal(res.statusCode, 401);
      assert.deepEqual(limiter.charged, []);
    });

    it('answers an exhausted passkey with 429, Retry-After and no token', async () => {
      limiter.refuse = {
        allowed: false,
        exceeded: 'quota',
        retryAfterSeconds: 42,
        headers: { ratelimit: '"default";r=0;t=42' },
      };
      try {
        const res = await requestToken(app, demo.clientId, demo.clientSecret);
        assert.equal(res.statusCode, 429);
        assert.equal(res.headers['retry-after'], '42');
        assert.equal(res.headers.ratelimit, '"default";r=0;t=42');
        assert.equal(typeof res.json().error, 'string');
        assert.equal(res.json().access_token, undefined);
      } finally {
        limiter.refuse = null;
      }
    });

    it('refuses a revoked passkey by name', async () => {
      const extra = await seedDemo(runtime.deps, { environment: 'production' });
      await updatePasskey(runtime.deps, { passkeyId: await passkeyId(extra.privacyPasskey), revoke: true });
      const res = await requestToken(app, extra.clientId, extra.clientSecret, {
        query: `passkey=${extra.privacyPasskey}`,
      });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error, 'invalid_request');
    });
  });

  describe('bearer tokens at the resource endpoints (RFC 6750 §3)', () => {
    let guid: string;
    before(async () => {
      const created = await app.inject({
        method: 'POST',
        url: `/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1?passkey=${demo.responsePasskey}`,
        headers: { host: 'localhost:8080', authorization: `Bearer ${await token(demo)}` },
        payload: { attributes: { department: 'Support', response: 'Thank you for the review.' } },
      });
      assert.equal(created.statusCode, 200, created.body);
      guid = created.json().data.id;
    });

    it('serves a token from the token endpoint', async () => {
      const res = await author(await token(demo), guid);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.type, 'author');
    });

    it('answers a missing, unknown or other-environment token with 401 and a Bearer challenge', async () => {
      const missing = await author(null, guid);
      assert.equal(missing.statusCode, 401);
      assert.match(String(missing.headers['www-authenticate']), /^Bearer realm="api"$/);
      const stg = await seedDemo(runtime.deps, { environment: 'staging' });
      const stgToken = (
        await requestToken(app, stg.clientId, stg.clientSecret, { host: 'stg.localhost:8080' })
      ).json().access_token as string;
      for (const value of ['rpa_at_madeup', stgToken]) {
        const res = await author(value, guid);
        assert.equal(res.statusCode, 401);
        assert.match(String(res.headers['www-authenticate']), /^Bearer realm="api", error="invalid_token"/);
      }
      // ... and a production token on the staging host.
      const onStaging = await author(await token(demo), guid, 'stg.localhost:8080');
      assert.equal(onStaging.statusCode, 401);
    });

    it('reads a token checked before by the RFC 6750 grammar, whatever the header spelling', async () => {
      const value = await token(demo);
      assert.equal((await author(value, guid)).statusCode, 200);
      const sent = (authorization: string) =>
        app.inject({
          method: 'GET',
          url: `/response/v1/clientResponses/${guid}/author?passkey=${demo.responsePasskey}`,
          headers: { host: 'localhost:8080', authorization },
        });
      for (const accepted of [`bearer ${value}`, `Bearer   ${value}`, `Bearer ${value}  `]) {
        assert.equal((await sent(accepted)).statusCode, 200, accepted);
      }
      for (const refused of [
        `Bearer ${value} more`,
        `Bearer ${value},x`,
        `Bearer\t${value}`,
        `Bearer${value}`,
      ]) {
        const res = await sent(refused);
        assert.equal(res.statusCode, 401, refused);
        assert.match(String(res.headers['www-authenticate']), /^Bearer realm="api"/);
      }
    });

    it('ends a token after its lifetime (TOKEN_TTL_SECONDS)', async () => {
      const res = await requestToken(app, demo.clientId, demo.clientSecret);
      assert.equal(res.json().expires_in, TTL_SECONDS);
      assert.equal(res.json().expires_at, now + TTL_SECONDS * 1000);
      const value = res.json().access_token as string;
      assert.equal((await author(value, guid)).statusCode, 200);
      now += TTL_SECONDS * 1000;
      const expired = await author(value, guid);
      assert.equal(expired.statusCode, 401);
      assert.match(
        String(expired.headers['www-authenticate']),
        /error="invalid_token", error_description="[^"]*expired/,
      );
    });
  });

  describe('secret rotation and application revocation', () => {
    it('serves two secrets during a rotation; retiring the old one ends it and its tokens', async () => {
      const app2 = await seedDemo(runtime.deps, { environment: 'production' });
      const oldToken = await token(app2);
      const rotated = await rotateApplicationSecret(runtime.deps, { applicationId: app2.applicationId });
      const newCreds = { clientId: app2.clientId, clientSecret: rotated.clientSecret };
      const newToken = await token(newCreds);
      await token(app2); // the old secret still works during the rotation
      await verify(oldToken); // and is now in this instance's cache

      await retireApplicationSecret(runtime.deps, { applicationId: app2.applicationId });
      const refused = await requestToken(app, app2.clientId, app2.clientSecret);
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().error, 'invalid_client');
      now += CACHE_TTL_MS;
      await assert.rejects(pending(verify(oldToken)), { code: 'INVALID_TOKEN' });
      assert.equal((await verify(newToken)).applicationId, app2.applicationId);
      await token(newCreds);
    });

    it('revoking an application ends its tokens and its token requests', async () => {
      const app3 = await seedDemo(runtime.deps, { environment: 'production' });
      const value = await token(app3);
      await verify(value);
      await revokeApplication(runtime.deps, { applicationId: app3.applicationId });
      now += CACHE_TTL_MS;
      await assert.rejects(pending(verify(value)), { code: 'INVALID_TOKEN' });
      const res = await requestToken(app, app3.clientId, app3.clientSecret);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error, 'unauthorized_client');
    });
  });

  describe('POST /auth/v1/oauth2/revoke (RFC 7009)', () => {
    it('revokes an own token at once, even one this instance has cached', async () => {
      const value = await token(demo);
      await verify(value);
      const res = await postForm(app, REVOKE_PATH, {
        body: { token: value, token_type_hint: 'access_token' },
        headers: { authorization: basicAuth(demo.clientId, demo.clientSecret) },
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {});
      assert.equal(res.headers['cache-control'], 'no-store');
      await assert.rejects(pending(verify(value)), { code: 'INVALID_TOKEN' });
      // Revoking again, or an unknown token, still succeeds (§2.2).
      for (const again of [value, 'rpa_at_unknown']) {
        const r = await postForm(app, REVOKE_PATH, {
          body: { token: again, client_id: demo.clientId, client_secret: demo.clientSecret },
        });
        assert.equal(r.statusCode, 200);
      }
    });

    it("leaves another application's token alone, and says nothing about it", async () => {
      const theirs = await token(other);
      const res = await postForm(app, REVOKE_PATH, {
        body: { token: theirs, client_id: demo.clientId, client_secret: demo.clientSecret },
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {});
      now += CACHE_TTL_MS;
      assert.equal((await verify(theirs)).applicationId, other.applicationId);
    });

    it('authenticates the client and validates the request like the token endpoint', async () => {
      const value = await token(demo);
      const wrong = await postForm(app, REVOKE_PATH, {
        body: { token: value, client_id: demo.clientId, client_secret: 'wrong' },
      });
      assert.equal(wrong.statusCode, 401);
      assert.equal(wrong.json().error, 'invalid_client');
      assert.match(String(wrong.headers['www-authenticate']), /^Basic /);
      const missing = await postForm(app, REVOKE_PATH, {
        body: { client_id: demo.clientId, client_secret: demo.clientSecret },
      });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().error, 'invalid_request');
      const repeated = await postForm(app, REVOKE_PATH, {
        body: `token=${value}&token=${value}&client_id=${demo.clientId}&client_secret=${demo.clientSecret}`,
      });
      assert.equal(repeated.statusCode, 400);
      const json = await app.inject({
        method: 'POST',
        url: REVOKE_PATH,
        headers: { host: 'localhost:8080', 'content-type': 'application/json' },
        payload: { token: value },
      });
      assert.equal(json.statusCode, 400);
      assert.equal(json.json().error, 'invalid_request');
      assert.equal((await verify(value)).applicationId, demo.applicationId);
    });
  });

  describe('metadata and documentation', () => {
    it('publishes RFC 8414 metadata with the request host as issuer', async () => {
      for (const host of ['localhost:8080', 'stg.localhost:8080']) {
        const res = await app.inject({ url: '/.well-known/oauth-authorization-server', headers: { host } });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        const base = `http://${host}`;
        assert.deepEqual(res.json(), {
          issuer: base,
          token_endpoint: `${base}${TOKEN_PATH}`,
          revocation_endpoint: `${base}${REVOKE_PATH}`,
          grant_types_supported: ['client_credentials'],
          response_types_supported: [],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
          revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
          scopes_supported: ['offline_access'],
        });
      }
    });

    it('documents the token, revocation and metadata endpoints in /openapi.json', async () => {
      const doc = (await app.inject({ url: '/openapi.json', headers: { host: 'localhost' } })).json();
      const issue = doc.paths[TOKEN_PATH].post;
      const form = issue.requestBody.content['application/x-www-form-urlencoded'].schema;
      assert.deepEqual(form.required, ['grant_type']);
      assert.ok(form.properties.client_secret);
      assert.deepEqual(Object.keys(issue.responses).sort(), [
        '200',
        '400',
        '401',
        '413',
        '429',
        '4XX',
        '503',
        '5XX',
      ]);
      // The token answer is a named component: follow its reference.
      const tokenSchema = issue.responses['200'].content['application/json'].schema;
      assert.equal(tokenSchema.$ref, '#/components/schemas/TokenResponse');
      assert.ok(doc.components.schemas.TokenResponse.properties.expires_at);
      assert.ok(doc.paths[REVOKE_PATH].post.requestBody.content['application/x-www-form-urlencoded']);
      assert.ok(doc.paths['/.well-known/oauth-authorization-server'].get);
    });
  });

  it('serves many simultaneous token requests of one application, each token distinct and valid', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? requestToken(app, demo.clientId, demo.clientSecret)
          : postForm(app, TOKEN_PATH, {
              body: { grant_type: 'client_credentials' },
              headers: { authorization: basicAuth(demo.clientId, demo.clientSecret) },
            }),
      ),
    );
    for (const res of answers) assert.equal(res.statusCode, 200, res.body);
    const tokens = answers.map((r) => r.json().access_token as string);
    assert.equal(new Set(tokens).size, 50);
    const principals = await Promise.all(tokens.map((v) => verify(v)));
    for (const p of principals) assert.equal(p.applicationId, demo.applicationId);
  });
});
