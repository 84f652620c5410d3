import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { hashCredential } from '../../../src/domain/credentials.js';
import { announceTokenRevocation } from '../../../src/services/auth/announce-token-revocation.js';
import { authenticateClient } from '../../../src/services/auth/authenticate-client.js';
import { issueAccessToken } from '../../../src/services/auth/issue-access-token.js';
import { revokeApplication } from '../../../src/services/tenancy/revoke-application.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import {
  createTestRuntime,
  TEST_DIALECT,
  TEST_REDIS_URL,
  type TestRuntime,
  uniqueSchema,
} from '../../helpers/test-runtime.js';

const TTL = 5000;

async function issue(runtime: TestRuntime, demo: DemoCredentials): Promise<string> {
  const client = await authenticateClient(runtime.deps, {
    environment: 'production',
    clientId: demo.clientId,
    clientSecret: demo.clientSecret,
  });
  return (await issueAccessToken(runtime.deps, { client, scope: 'offline_access' })).accessToken;
}

const deleteToken = (runtime: TestRuntime, token: string) =>
  runtime.deps.store.db.deleteFrom('access_tokens').where('token_hash', '=', hashCredential(token)).execute();

describe('token verifier cache', () => {
  let now = Date.UTC(2026, 10, 23, 12, 0, 0);
  let rt: TestRuntime;
  let demo: DemoCredentials;
  before(async () => {
    rt = await createTestRuntime({ TOKEN_CACHE_TTL_MS: String(TTL) }, { clock: () => now });
    demo = await seedDemo(rt.deps, { environment: 'production' });
  });
  after(() => rt.close());

  it('answers from memory within TOKEN_CACHE_TTL_MS, then asks the database again', async () => {
    const token = await issue(rt, demo);
    assert.equal((await rt.http.tokens.verify(token, 'production')).applicationId, demo.applicationId);
    // Gone from the database, the token is still served from this instance's cache ...
    await deleteToken(rt, token);
    assert.equal((await rt.http.tokens.verify(token, 'production')).applicationId, demo.applicationId);
    // ... and from the environment it belongs to only.
    await assert.rejects(rt.http.tokens.verify(token, 'staging'), { code: 'INVALID_TOKEN' });
    now += TTL;
    await assert.rejects(rt.http.tokens.verify(token, 'production'), { code: 'INVALID_TOKEN' });
  });

  it('drops entries at once by token, application or secret', async () => {
    const byToken = await issue(rt, demo);
    const byApp = await issue(rt, demo);
    const bySecret = await issue(rt, demo);
    const principals = await Promise.all(
      [byToken, byApp, bySecret].map((v) => rt.http.tokens.verify(v, 'production')),
    );
    for (const v of [byToken, byApp, bySecret]) await deleteToken(rt, v);
    const secretId = (
      await authenticateClient(rt.deps, {
        environment: 'production',
        clientId: demo.clientId,
        clientSecret: demo.clientSecret,
      })
    ).secretId;

    rt.http.tokens.forget({ tokenHash: (principals[0] as { tokenHash: string }).tokenHash });
    await assert.rejects(rt.http.tokens.verify(byToken, 'production'), { code: 'INVALID_TOKEN' });
    assert.ok(await rt.http.tokens.verify(byApp, 'production'));

    rt.http.tokens.forget({ secretId });
    await assert.rejects(rt.http.tokens.verify(bySecret, 'production'), { code: 'INVALID_TOKEN' });
    await assert.rejects(rt.http.tokens.verify(byApp, 'production'), { code: 'INVALID_TOKEN' });

    const again = await issue(rt, demo);
    await rt.http.tokens.verify(again, 'production');
    await deleteToken(rt, again);
    rt.http.tokens.forget({ applicationId: demo.applicationId });
    await assert.rejects(rt.http.tokens.verify(again, 'production'), { code: 'INVALID_TOKEN' });
  });

  it('shares one lookup between simultaneous first uses of a token', async () => {
    const token = await issue(rt, demo);
    const principals = await Promise.all(
      Array.from({ length: 20 }, () => rt.http.tokens.verify(token, 'production')),
    );
    assert.equal(new Set(principals).size, 1);
  });

  it('with TOKEN_CACHE_TTL_MS=0, asks the database every time', async () => {
    const uncached = await createTestRuntime({ TOKEN_CACHE_TTL_MS: '0' });
    try {
      const d = await seedDemo(uncached.deps, { environment: 'production' });
      const token = await issue(uncached, d);
      await uncached.http.tokens.verify(token, 'production');
      await deleteToken(uncached, token);
      await assert.rejects(uncached.http.tokens.verify(token, 'production'), { code: 'INVALID_TOKEN' });
    } finally {
      await uncached.close();
    }
  });
});

describe('token verifier connections', () => {
  it('opens no Redis subscription until a token is checked, and closes quietly', {
    skip: TEST_REDIS_URL ? false : 'needs REDIS_URL',
  }, async () => {
    const rt = await createTestRuntime();
    const demo = await seedDemo(rt.deps, { environment: 'production' });
    const token = await issue(rt, demo);
    await rt.http.tokens.verify(token, 'production');
    // Closed while the subscription may still be connecting: no warning about it.
    await rt.close();
    assert.doesNotMatch(rt.logs.text(), /subscri/);
  });
});

describe('revocation across instances sharing one database', () => {
  let now = Date.UTC(2026, 10, 23, 12, 0, 0);
  const clock = () => now;
  let a: TestRuntime;
  let b: TestRuntime;
  let dir: string | null = null;

  before(async () => {
    if (TEST_DIALECT === 'postgres') {
      const schema = uniqueSchema();
      a = await createTestRuntime({}, { clock, schema });
      b = await createTestRuntime({}, { clock, schema });
    } else {
      dir = mkdtempSync(join(tmpdir(), 'rpa-tokens-'));
      const databaseUrl = `sqlite:${join(dir, 'shared.db')}`;
      a = await createTestRuntime({}, { clock, databaseUrl });
      b = await createTestRuntime({}, { clock, databaseUrl });
    }
  });
  after(async () => {
    await b?.close();
    await a?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('another instance stops accepting a revoked token within TOKEN_CACHE_TTL_MS', async () => {
    const demo = await seedDemo(a.deps, { environment: 'production' });
    const token = await issue(a, demo);
    assert.equal((await b.http.tokens.verify(token, 'production')).applicationId, demo.applicationId);
    await revokeApplication(a.deps, { applicationId: demo.applicationId });
    now += TTL;
    await assert.rejects(b.http.tokens.verify(token, 'production'), { code: 'INVALID_TOKEN' });
  });

  it('with Redis, another instance drops a revoked token without waiting for its cache', {
    skip: TEST_REDIS_URL ? false : 'needs REDIS_URL',
  }, async () => {
    const demo = await seedDemo(a.deps, { environment: 'production' });
    const rejects = (token: string) =>
      b.http.tokens.verify(token, 'production').then(
        () => false,
        () => true,
      );
    // First make sure B's subscription is live: a token deleted behind B's back stays cached
    // until an announcement drops it (B's subscription may still be connecting, so repeat it).
    const probe = await issue(a, demo);
    await b.http.tokens.verify(probe, 'production');
    await deleteToken(a, probe);
    let live = false;
    for (let attempt = 0; attempt < 200 && !live; attempt += 1) {
      await announceTokenRevocation(a.deps, { tokenHash: hashCredential(probe) });
      await sleep(25);
      live = await rejects(probe);
    }
    assert.ok(live, 'the other instance never received an announcement');

    // The clock stands still: only revokeApplication's own announcement can end the entry.
    const token = await issue(a, demo);
    await b.http.tokens.verify(token, 'production');
    await revokeApplication(a.deps, { applicationId: demo.applicationId });
    let rejected = await rejects(token);
    for (let attempt = 0; attempt < 200 && !rejected; attempt += 1) {
      await sleep(25);
      rejected = await rejects(token);
    }
    assert.ok(rejected, 'the revocation announcement never reached the other instance');
  });
});
