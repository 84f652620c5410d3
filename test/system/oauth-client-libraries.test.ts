import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import * as oidc from 'openid-client';
import { ClientCredentials } from 'simple-oauth2';
import { type DemoCredentials, seedDemo } from '../../src/services/tenancy/seed-demo.js';
import { createTestApp, type TestApp } from '../helpers/test-runtime.js';
import { REVOKE_PATH, TOKEN_PATH } from '../http/auth/oauth-fixtures.js';

/**
 * Real OAuth client libraries against a real listening server: what a partner's developer would
 * write, end to end, up to a call of the Response API with the token obtained.
 */
describe('OAuth client libraries', () => {
  let t: TestApp;
  let base: string;
  let demo: DemoCredentials;
  const seen = new Set<string>();
  let answer = 0;

  before(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    demo = await seedDemo(t.runtime.deps, { environment: 'production' });
    for (const v of [demo.clientSecret, demo.responsePasskey, demo.privacyPasskey]) seen.add(v);
  });
  after(() => t.close());

  /** Answers a review with the token, then reads the author back (seed §4.1). */
  async function useToken(token: string, get: (url: URL) => Promise<Response>): Promise<void> {
    answer += 1;
    const created = await fetch(
      `${base}/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-${(answer % 3) + 1}?passkey=${demo.responsePasskey}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ attributes: { department: 'Support', response: `Thank you (${answer})` } }),
      },
    );
    assert.equal(created.status, 200, await created.clone().text());
    const guid = ((await created.json()) as { data: { id: string } }).data.id;
    const author = await get(
      new URL(`${base}/response/v1/clientResponses/${guid}/author?passkey=${demo.responsePasskey}`),
    );
    assert.equal(author.status, 200);
    const body = (await author.json()) as { data: { type: string }; links: { self: string } };
    assert.equal(body.data.type, 'author');
    assert.equal(body.links.self, `${base}/response/v1/clientResponses/${guid}/author`);
  }

  const bearerGet = (token: string) => (url: URL) =>
    fetch(url, { headers: { authorization: `Bearer ${token}` } });

  for (const [name, auth] of [
    ['client_secret_basic', oidc.ClientSecretBasic],
    ['client_secret_post', oidc.ClientSecretPost],
  ] as const) {
    it(`openid-client: RFC 8414 discovery, client credentials (${name}), a protected call, revocation`, async () => {
      const config = await oidc.discovery(new URL(base), demo.clientId, demo.clientSecret, auth(), {
        algorithm: 'oauth2',
        execute: [oidc.allowInsecureRequests],
      });
      const metadata = config.serverMetadata();
      assert.equal(metadata.issuer, base);
      assert.equal(metadata.token_endpoint, `${base}${TOKEN_PATH}`);
      assert.equal(metadata.revocation_endpoint, `${base}${REVOKE_PATH}`);

      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'offline_access' });
      seen.add(tokens.access_token);
      assert.equal(tokens.token_type, 'bearer'); // the library lower-cases it
      // expires_in is exact; expiresIn() counts down from when the library received the answer.
      assert.equal(tokens.expires_in, 3600);
      const remaining = tokens.expiresIn() ?? 0;
      assert.ok(remaining > 3500 && remaining <= 3600, `expiresIn() ${remaining}`);
      assert.equal(tokens.scope, 'offline_access');

      await useToken(tokens.access_token, (url) =>
        oidc.fetchProtectedResource(config, tokens.access_token, url, 'GET'),
      );

      await oidc.tokenRevocation(config, tokens.access_token);
      const refused = await oidc
        .fetchProtectedResource(
          config,
          tokens.access_token,
          new URL(
            `${base}/response/v1/clientResponses/00000000-0000-4000-8000-000000000000/author?passkey=${demo.responsePasskey}`,
          ),
          'GET',
        )
        .then(
          () => assert.fail('a revoked token was accepted'),
          (e: unknown) => e as oidc.WWWAuthenticateChallengeError,
        );
      // The library parses the RFC 6750 §3 challenge.
      assert.equal(refused.status, 401);
      assert.equal(refused.cause[0]?.scheme, 'bearer');
      assert.equal(refused.cause[0]?.parameters.error, 'invalid_token');
    });
  }

  it('openid-client: a wrong secret surfaces as the invalid_client error', async () => {
    const config = await oidc.discovery(
      new URL(base),
      demo.clientId,
      'rpa_cs_wrong',
      oidc.ClientSecretBasic(),
      {
        algorithm: 'oauth2',
        execute: [oidc.allowInsecureRequests],
      },
    );
    const err = await oidc.clientCredentialsGrant(config).then(
      () => assert.fail('a wrong secret obtained a token'),
      (e: unknown) => e as oidc.WWWAuthenticateChallengeError,
    );
    // The library reports the RFC 6749 §5.2 challenge first; the body carries the OAuth error.
    assert.equal(err.code, 'OAUTH_WWW_AUTHENTICATE_CHALLENGE');
    assert.equal(err.status, 401);
    assert.equal(err.cause[0]?.scheme, 'basic');
    assert.equal(((await err.response.json()) as { error: string }).error, 'invalid_client');
  });

  for (const authorizationMethod of ['header', 'body'] as const) {
    it(`simple-oauth2: ClientCredentials.getToken (credentials in the ${authorizationMethod}), a protected call, revoke`, async () => {
      const client = new ClientCredentials({
        client: { id: demo.clientId, secret: demo.clientSecret },
        auth: { tokenHost: base, tokenPath: TOKEN_PATH, revokePath: REVOKE_PATH },
        options: { authorizationMethod },
      });
      const accessToken = await client.getToken({ scope: 'offline_access' });
      const token = accessToken.token.access_token as string;
      seen.add(token);
      assert.equal(accessToken.token.token_type, 'Bearer');
      assert.equal(accessToken.token.expires_in, 3600);
      assert.equal(accessToken.token.refresh_token, 'null');

      await useToken(token, bearerGet(token));

      await accessToken.revoke('access_token');
      const res = await bearerGet(token)(
        new URL(
          `${base}/response/v1/clientResponses/00000000-0000-4000-8000-000000000000/author?passkey=${demo.responsePasskey}`,
        ),
      );
      assert.equal(res.status, 401);
    });
  }

  it('simple-oauth2: a wrong secret is rejected with 401 invalid_client', async () => {
    const client = new ClientCredentials({
      client: { id: demo.clientId, secret: 'rpa_cs_wrong' },
      auth: { tokenHost: base, tokenPath: TOKEN_PATH },
    });
    await assert.rejects(client.getToken({}), (err: unknown) => {
      const e = err as { output?: { statusCode?: number }; data?: { payload?: { error?: string } } };
      return e.output?.statusCode === 401 && e.data?.payload?.error === 'invalid_client';
    });
  });

  it('leaves no secret, token or passkey in the logs', () => {
    const logs = t.runtime.logs.text();
    assert.ok(logs.includes('/auth/v1/oauth2/token'));
    for (const value of seen)
      assert.ok(!logs.includes(value), `a credential ending ${value.slice(-4)} was logged`);
  });
});
