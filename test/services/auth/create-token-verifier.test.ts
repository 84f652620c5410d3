import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { parseAccessToken, signAccessToken, tokenMacKey } from '../../../src/domain/access-token.js';
import { CREDENTIAL_PREFIX, hashCredential } from '../../../src/domain/credentials.js';
import { authenticateClient } from '../../../src/services/auth/authenticate-client.js';
import { createTokenVerifier } from '../../../src/services/auth/create-token-verifier.js';
import { findTokenPasskey } from '../../../src/services/auth/find-token-passkey.js';
import { issueAccessToken } from '../../../src/services/auth/issue-access-token.js';
import { revokeAccessToken } from '../../../src/services/auth/revoke-access-token.js';
import { rotateSigningKey } from '../../../src/services/auth/rotate-signing-key.js';
import { isPromise } from '../../../src/services/maybe-promise.js';
import { TENANCY_CHANNEL } from '../../../src/services/tenancy/announce-tenancy-change.js';
import { createApplication } from '../../../src/services/tenancy/create-application.js';
import { createPasskey } from '../../../src/services/tenancy/create-passkey.js';
import { findActivePasskey } from '../../../src/services/tenancy/find-active-passkey.js';
import { retireApplicationSecret } from '../../../src/services/tenancy/retire-application-secret.js';
import { revokeApplication } from '../../../src/services/tenancy/revoke-application.js';
import { rotateApplicationSecret } from '../../../src/services/tenancy/rotate-application-secret.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import { updatePasskey } from '../../../src/services/tenancy/update-passkey.js';
import { findPasskeyByHash } from '../../../src/store/repositories/passkeys.js';
import type { Database } from '../../../src/store/schema.js';
import { pending } from '../../helpers/pending.js';
import {
  createTestRuntime,
  TEST_DIALECT,
  TEST_REDIS_URL,
  type TestRuntime,
  uniqueSchema,
} from '../../helpers/test-runtime.js';

const TTL = 5000;
const START = Date.UTC(2026, 10, 23, 12, 0, 0);

async function clientOf(runtime: TestRuntime, demo: { clientId: string; clientSecret: string }) {
  return authenticateClient(runtime.deps, {
    environment: 'production',
    clientId: demo.clientId,
    clientSecret: demo.clientSecret,
  });
}

async function issue(
  runtime: TestRuntime,
  demo: { clientId: string; clientSecret: string },
): Promise<string> {
  const client = await clientOf(runtime, demo);
  return (await issueAccessToken(runtime.deps, { client, scope: 'offline_access' })).accessToken;
}

/**
 * Whether the check refuses the token. An answer from memory alone (a principal returned at once,
 * not a promise) must never be one the check refuses: a stale cache there would let a revoked
 * token through the hot path.
 */
async function refused(runtime: TestRuntime, token: string): Promise<boolean> {
  const answer = runtime.http.tokens.verify(token, 'production');
  const held = isPromise(answer) ? undefined : answer;
  const isRefused = await Promise.resolve(answer).then(
    (principal) => {
      if (held) assert.deepEqual(held, principal);
      return false;
    },
    (err: { code?: string }) => {
      assert.equal(err.code, 'INVALID_TOKEN');
      return true;
    },
  );
  if (isRefused) assert.equal(held, undefined, 'answered from memory a token the full check refuses');
  return isRefused;
}

/** Two instances on one database: with REDIS_URL when the suite has one, unless told not to. */
async function twoInstances(env: Record<string, string>, clock: () => number) {
  let dir: string | null = null;
  let a: TestRuntime;
  let b: TestRuntime;
  if (TEST_DIALECT === 'postgres') {
    const schema = uniqueSchema();
    a = await createTestRuntime(env, { clock, schema, keepSchema: true });
    b = await createTestRuntime(env, { clock, schema });
  } else {
    dir = mkdtempSync(join(tmpdir(), 'rpa-tokens-'));
    const databaseUrl = `sqlite:${join(dir, 'shared.db')}`;
    a = await createTestRuntime(env, { clock, databaseUrl });
    b = await createTestRuntime(env, { clock, databaseUrl });
  }
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('signed access tokens', () => {
  let now = START;
  let rt: TestRuntime;
  let demo: DemoCredentials;
  before(async () => {
    rt = await createTestRuntime({ TOKEN_CACHE_TTL_MS: String(TTL) }, { clock: () => now });
    demo = await seedDemo(rt.deps, { environment: 'production' });
  });
  after(() => rt.close());

  it('verifies a token it issued, in its environment only, until it expires', async () => {
    const token = await issue(rt, demo);
    assert.match(token, /^rpa_at_[A-Za-z0-9_-]+$/);
    const principal = await rt.http.tokens.verify(token, 'production');
    assert.equal(principal.applicationId, demo.applicationId);
    assert.equal(principal.expiresAt, now + rt.config.tokenTtlSeconds * 1000);
    await assert.rejects(pending(rt.http.tokens.verify(token, 'staging')), { code: 'INVALID_TOKEN' });
    const saved = now;
    now += rt.config.tokenTtlSeconds * 1000;
    try {
      await assert.rejects(pending(rt.http.tokens.verify(token, 'production')), { code: 'INVALID_TOKEN' });
    } finally {
      now = saved;
    }
  });

  it('refuses every altered token with INVALID_TOKEN, never another error', async () => {
    const token = await issue(rt, demo);
    const body = token.slice(CREDENTIAL_PREFIX.accessToken.length);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: body.length - 1 }),
        fc.constantFrom(...alphabet),
        async (at, replacement) => {
          fc.pre(body[at] !== replacement);
          const altered = `${CREDENTIAL_PREFIX.accessToken}${body.slice(0, at)}${replacement}${body.slice(at + 1)}`;
          assert.ok(await refused(rt, altered));
        },
      ),
      { numRuns: 300 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 500 }), async (junk) => {
        assert.ok(await refused(rt, junk));
        assert.ok(await refused(rt, CREDENTIAL_PREFIX.accessToken + junk));
      }),
      { numRuns: 200 },
    );
    for (const cut of [1, 10, 40]) assert.ok(await refused(rt, token.slice(0, -cut)));
    assert.ok(await refused(rt, `${token}A`));
  });

  it('refuses tokens signed with another key, for another environment, or already expired', async () => {
    const token = await issue(rt, demo);
    const parsed = parseAccessToken(token);
    assert.ok(parsed);
    const forgedKey = tokenMacKey(Buffer.alloc(32, 7));
    const forge = (changes: Partial<typeof parsed.claims>, key = forgedKey) =>
      signAccessToken({ ...parsed.claims, ...changes }, key);
    // A key id nobody has, and a known key id with the wrong key.
    assert.ok(await refused(rt, forge({ keyId: 'no-such-key' })));
    assert.ok(await refused(rt, forge({})));
    // Claims changed under the original signature.
    const signedBody = token.slice(CREDENTIAL_PREFIX.accessToken.length);
    const mac = Buffer.from(signedBody, 'base64url').subarray(-32);
    for (const changes of [{ environment: 'staging' as const }, { expiresAt: now + 86_400_000 }]) {
      const body = Buffer.from(forge(changes).slice(CREDENTIAL_PREFIX.accessToken.length), 'base64url');
      const swapped = Buffer.concat([body.subarray(0, -32), mac]).toString('base64url');
      assert.ok(await refused(rt, CREDENTIAL_PREFIX.accessToken + swapped));
    }
    const expired = await issueAccessToken(rt.deps, {
      client: await clientOf(rt, demo),
      scope: 'offline_access',
      expiresIn: -1,
    });
    await assert.rejects(pending(rt.http.tokens.verify(expired.accessToken, 'production')), {
      code: 'INVALID_TOKEN',
      message: /expired/,
    });
  });

  it('stores nothing derived from the tokens it issues', async () => {
    const tables = (await rt.deps.store.db.introspection.getTables()).map((t) => t.name);
    const count = async () => {
      const counts: Record<string, number> = {};
      for (const table of tables) {
        const row = await rt.deps.store.db
          .selectFrom(table as keyof Database)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        counts[table] = Number(row.n);
      }
      return counts;
    };
    await issue(rt, demo); // the first signing key exists from here on
    const before = await count();
    const client = await clientOf(rt, demo);
    const tokens = new Set<string>();
    for (let i = 0; i < 100; i += 1) {
      tokens.add((await issueAccessToken(rt.deps, { client, scope: 'offline_access' })).accessToken);
    }
    assert.equal(tokens.size, 100);
    assert.deepEqual(await count(), before);
  });

  it('keeps RFC 7009 deny entries until the token expires, then deletes them', async () => {
    const client = await clientOf(rt, demo);
    const token = await issue(rt, demo);
    assert.ok(await revokeAccessToken(rt.deps, { client, token }));
    await assert.rejects(pending(rt.http.tokens.verify(token, 'production')), { message: /revoked/ });
    const denials = () => rt.deps.store.db.selectFrom('token_denials').selectAll().execute();
    assert.equal((await denials()).length, 1);
    const saved = now;
    now += rt.config.tokenTtlSeconds * 1000 + TTL;
    try {
      // The next sync of the deny list removes what has expired.
      await rt.http.tokens.verify(await issue(rt, demo), 'production');
      assert.equal((await denials()).length, 0);
    } finally {
      now = saved;
    }
  });

  it('does not revoke a token of another application, a forged one or garbage (RFC 7009 §2.2)', async () => {
    const other = await seedDemo(rt.deps, { environment: 'production' });
    const mine = await issue(rt, demo);
    const theirs = await issue(rt, other);
    const client = await clientOf(rt, demo);
    assert.equal(await revokeAccessToken(rt.deps, { client, token: theirs }), null);
    assert.equal(await revokeAccessToken(rt.deps, { client, token: `${mine.slice(0, -2)}AA` }), null);
    assert.equal(await revokeAccessToken(rt.deps, { client, token: 'rpa_at_garbage' }), null);
    assert.equal((await rt.http.tokens.verify(theirs, 'production')).applicationId, other.applicationId);
    assert.equal((await rt.http.tokens.verify(mine, 'production')).applicationId, demo.applicationId);
  });

  it('rotates signing keys: old tokens stay valid, new ones use the new key, a retired key is refused', async () => {
    const old = await issue(rt, demo);
    const oldKey = parseAccessToken(old)?.claims.keyId;
    const { keyId } = await rotateSigningKey(rt.deps);
    const fresh = await issue(rt, demo);
    assert.equal(parseAccessToken(fresh)?.claims.keyId, keyId);
    assert.notEqual(keyId, oldKey);
    assert.ok(await rt.http.tokens.verify(old, 'production'));
    assert.ok(await rt.http.tokens.verify(fresh, 'production'));
    await rotateSigningKey(rt.deps, { retirePrevious: true });
    assert.ok(await refused(rt, old));
    assert.ok(await refused(rt, fresh));
    assert.ok(await rt.http.tokens.verify(await issue(rt, demo), 'production'));
  });

  it('shares one database read between simultaneous first uses of an application', async () => {
    const token = await issue(rt, demo);
    const principals = await Promise.all(
      Array.from({ length: 20 }, () => rt.http.tokens.verify(token, 'production')),
    );
    assert.equal(new Set(principals.map((p) => p.tokenId)).size, 1);
  });
});

describe('tokens answered from memory', () => {
  it('are answered only when every check can be made in memory, and then as the full check would', async () => {
    let now = START;
    const rt = await createTestRuntime({ TOKEN_CACHE_TTL_MS: String(TTL) }, { clock: () => now });
    try {
      const demo = await seedDemo(rt.deps, { environment: 'production' });
      const token = await issue(rt, demo);
      const { tokens } = rt.http;
      // Never checked here: its signature is still to be computed.
      const first = tokens.verify(token, 'production');
      assert.ok(isPromise(first));
      const principal = await first;
      assert.deepEqual(tokens.verify(token, 'production'), principal);
      // Another environment, and the caches past TOKEN_CACHE_TTL_MS: the full check decides.
      const staging = tokens.verify(token, 'staging');
      assert.ok(isPromise(staging));
      await assert.rejects(staging, { code: 'INVALID_TOKEN' });
      now += TTL;
      const reread = tokens.verify(token, 'production');
      assert.ok(isPromise(reread));
      assert.deepEqual(await reread, principal);
      assert.deepEqual(tokens.verify(token, 'production'), principal);
      // Revoked here (RFC 7009) and applied here, as the revocation endpoint does: refused at
      // once, from memory too.
      const change = await revokeAccessToken(rt.deps, { client: await clientOf(rt, demo), token });
      assert.ok(change);
      tokens.forget(change);
      const revoked = tokens.verify(token, 'production');
      assert.ok(isPromise(revoked));
      await assert.rejects(revoked, { code: 'INVALID_TOKEN' });
      assert.ok(await refused(rt, token));
      // Expired: the same.
      const other = await issue(rt, demo);
      const { expiresAt } = await tokens.verify(other, 'production');
      assert.ok(!isPromise(tokens.verify(other, 'production')));
      now = expiresAt;
      const expired = tokens.verify(other, 'production');
      assert.ok(isPromise(expired));
      await assert.rejects(expired, { code: 'INVALID_TOKEN' });
      assert.ok(await refused(rt, other));
    } finally {
      await rt.close();
    }
  });

  it('are not answered while the deny list is due for a re-read, whatever else is fresh', async () => {
    let now = START;
    const pair = await twoInstances({ TOKEN_CACHE_TTL_MS: String(TTL), REDIS_URL: '' }, () => now);
    try {
      const demo = await seedDemo(pair.a.deps, { environment: 'production' });
      const token = await issue(pair.a, demo);
      // B reads its deny list and the application now.
      assert.ok(await pair.b.http.tokens.verify(token, 'production'));
      // Halfway through, B re-reads the application and the signing keys, not the deny list (as
      // after announced changes to those two).
      now += TTL / 2;
      pair.b.http.tokens.forget({ applicationId: demo.applicationId });
      pair.b.http.tokens.forget({ signingKeys: true });
      assert.ok(await pair.b.http.tokens.verify(token, 'production'));
      // A revokes the token; no announcement reaches B.
      await revokeAccessToken(pair.a.deps, { client: await clientOf(pair.a, demo), token });
      // B's deny list is now due, the rest still fresh: memory alone must not answer.
      now = START + TTL;
      const due = pair.b.http.tokens.verify(token, 'production');
      assert.ok(isPromise(due));
      await assert.rejects(due, { code: 'INVALID_TOKEN' });
      assert.ok(await refused(pair.b, token));
    } finally {
      await pair.close();
    }
  });

  it('are never answered with TOKEN_CACHE_TTL_MS=0', async () => {
    const rt = await createTestRuntime({ TOKEN_CACHE_TTL_MS: '0' }, { clock: () => START });
    try {
      const demo = await seedDemo(rt.deps, { environment: 'production' });
      const token = await issue(rt, demo);
      assert.ok(await rt.http.tokens.verify(token, 'production'));
      const again = rt.http.tokens.verify(token, 'production');
      assert.ok(isPromise(again));
      assert.ok(await again);
    } finally {
      await rt.close();
    }
  });
});

describe('tokens whose signature was checked', () => {
  it('count only while the keys that checked them are in memory', async () => {
    const rt = await createTestRuntime({ TOKEN_CACHE_TTL_MS: String(TTL) }, { clock: () => START });
    try {
      const demo = await seedDemo(rt.deps, { environment: 'production' });
      const token = await issue(rt, demo);
      assert.ok(await rt.http.tokens.verify(token, 'production'));
      // The key row gone, as `rpa tokens rotate-key --retire-previous` leaves it once purged: a
      // token remembered as verified must not outlive the key that verified it.
      await rt.deps.store.db.deleteFrom('token_signing_keys').execute();
      rt.http.tokens.forget({ signingKeys: true });
      assert.ok(await refused(rt, token));
      // Remembering is per token string: the token's claims under another MAC are a new check.
      const fresh = await issue(rt, demo);
      assert.ok(await rt.http.tokens.verify(fresh, 'production'));
      const bytes = Buffer.from(fresh.slice(CREDENTIAL_PREFIX.accessToken.length), 'base64url');
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
      assert.ok(await refused(rt, CREDENTIAL_PREFIX.accessToken + bytes.toString('base64url')));
      assert.ok(await rt.http.tokens.verify(fresh, 'production'));
    } finally {
      await rt.close();
    }
  });
});

describe('with TOKEN_CACHE_TTL_MS=0', () => {
  it('every instance asks the database every time', async () => {
    const pair = await twoInstances({ TOKEN_CACHE_TTL_MS: '0', REDIS_URL: '' }, () => START);
    try {
      const demo = await seedDemo(pair.a.deps, { environment: 'production' });
      const token = await issue(pair.a, demo);
      assert.ok(await pair.b.http.tokens.verify(token, 'production'));
      await revokeAccessToken(pair.a.deps, { client: await clientOf(pair.a, demo), token });
      assert.ok(await refused(pair.b, token));
    } finally {
      await pair.close();
    }
  });
});

/**
 * Each change made on instance A, and how to tell that instance B has applied it. Without Redis B
 * must apply it once TOKEN_CACHE_TTL_MS has passed; with Redis, at once.
 */
function changes() {
  return [
    {
      name: 'an RFC 7009 revocation',
      async make(a: TestRuntime, b: TestRuntime) {
        const demo = await seedDemo(a.deps, { environment: 'production' });
        const token = await issue(a, demo);
        assert.ok(await b.http.tokens.verify(token, 'production'));
        return {
          change: async () => {
            await revokeAccessToken(a.deps, { client: await clientOf(a, demo), token });
          },
          applied: () => refused(b, token),
        };
      },
    },
    {
      name: 'a retired secret',
      async make(a: TestRuntime, b: TestRuntime) {
        const demo = await seedDemo(a.deps, { environment: 'production' });
        const token = await issue(a, demo);
        const { secretId } = await clientOf(a, demo);
        await rotateApplicationSecret(a.deps, { applicationId: demo.applicationId });
        assert.ok(await b.http.tokens.verify(token, 'production'));
        return {
          change: async () => {
            await retireApplicationSecret(a.deps, { applicationId: demo.applicationId, secretId });
          },
          applied: () => refused(b, token),
        };
      },
    },
    {
      name: 'a revoked application',
      async make(a: TestRuntime, b: TestRuntime) {
        const demo = await seedDemo(a.deps, { environment: 'production' });
        const token = await issue(a, demo);
        assert.ok(await b.http.tokens.verify(token, 'production'));
        return {
          change: () => revokeApplication(a.deps, { applicationId: demo.applicationId }),
          applied: () => refused(b, token),
        };
      },
    },
    {
      name: 'a retired signing key',
      async make(a: TestRuntime, b: TestRuntime) {
        const demo = await seedDemo(a.deps, { environment: 'production' });
        const token = await issue(a, demo);
        assert.ok(await b.http.tokens.verify(token, 'production'));
        return {
          change: async () => {
            await rotateSigningKey(a.deps, { retirePrevious: true });
          },
          applied: () => refused(b, token),
        };
      },
    },
    {
      name: 'the first passkey of an application, which token calls naming none are charged to',
      async make(a: TestRuntime, b: TestRuntime) {
        const { application, clientSecret } = await createApplication(a.deps, {
          environment: 'production',
          name: 'No passkey yet',
          clientNames: [],
        });
        const client = await clientOf(b, { clientId: application.clientId, clientSecret });
        assert.equal(await findTokenPasskey(b.deps, { client }), null);
        return {
          change: async () => {
            await createPasskey(a.deps, { applicationId: application.id, api: 'response' });
          },
          applied: async () => (await findTokenPasskey(b.deps, { client }))?.isDefault === true,
        };
      },
    },
    ...(['limits', 'revocation'] as const).map((what) => ({
      name: `a passkey's ${what}`,
      async make(a: TestRuntime, b: TestRuntime) {
        const demo = await seedDemo(a.deps, { environment: 'production' });
        const token = await issue(a, demo);
        const principal = await b.http.tokens.verify(token, 'production');
        const value = demo.responsePasskey;
        // An answer from memory alone (returned at once) must agree with the full look-up.
        const passkey = async () => {
          const input = { value, principal, api: 'response' as const };
          const answer = findActivePasskey(b.deps, input);
          const held = isPromise(answer) ? undefined : answer;
          const found = await Promise.resolve(answer).catch((err: unknown) => {
            assert.equal(held, undefined, 'answered from memory a passkey the full look-up refuses');
            throw err;
          });
          if (held) assert.equal(held, found);
          return found;
        };
        const row = await findPasskeyByHash(a.deps.store.db, hashCredential(value));
        assert.ok(row);
        assert.notEqual((await passkey()).ratePerMinute, 7);
        return {
          change: async () => {
            await updatePasskey(
              a.deps,
              what === 'limits'
                ? { passkeyId: row.id, ratePerMinute: 7 }
                : { passkeyId: row.id, revoke: true },
            );
          },
          applied: async () =>
            what === 'limits'
              ? (await passkey()).ratePerMinute === 7
              : passkey().then(
                  () => false,
                  (err: { code?: string }) => err.code === 'DEVELOPER_INACTIVE',
                ),
        };
      },
    })),
  ];
}

describe('changes reach other instances sharing one database', () => {
  describe('without Redis, within TOKEN_CACHE_TTL_MS', () => {
    let now = START;
    let pair: Awaited<ReturnType<typeof twoInstances>>;
    before(async () => {
      pair = await twoInstances({ TOKEN_CACHE_TTL_MS: String(TTL), REDIS_URL: '' }, () => now);
    });
    after(() => pair.close());

    for (const c of changes()) {
      it(`applies ${c.name}`, async () => {
        const { change, applied } = await c.make(pair.a, pair.b);
        await change();
        // A made the change, so it applies it at once (a revoked token is refused by A as well).
        now += TTL;
        assert.ok(await applied(), `${c.name} not applied after TOKEN_CACHE_TTL_MS`);
      });
    }
  });

  describe('with Redis, at once', { skip: TEST_REDIS_URL ? false : 'needs REDIS_URL' }, () => {
    const now = START;
    let pair: Awaited<ReturnType<typeof twoInstances>>;
    before(async () => {
      pair = await twoInstances({ TOKEN_CACHE_TTL_MS: String(TTL) }, () => now);
      await subscribed(pair);
    });
    after(() => pair.close());

    for (const c of changes()) {
      it(`applies ${c.name}`, async () => {
        const { change, applied } = await c.make(pair.a, pair.b);
        await change();
        assert.ok(await announced(applied), `${c.name} never reached the other instance`);
      });
    }
  });
});

type InstancePair = Awaited<ReturnType<typeof twoInstances>>;

/** Once B's subscription is live: B learns of a fresh signing key only by announcement. */
async function subscribed(pair: InstancePair): Promise<void> {
  const demo = await seedDemo(pair.a.deps, { environment: 'production' });
  const probe = await issue(pair.a, demo);
  await pair.b.http.tokens.verify(probe, 'production');
  const { tokenId, expiresAt } = parseAccessToken(probe)?.claims ?? { tokenId: '', expiresAt: 0 };
  let live = false;
  for (let attempt = 0; attempt < 200 && !live; attempt += 1) {
    // Announced without a deny entry: only the message can make B refuse it.
    await pair.a.deps.redis?.publish(TENANCY_CHANNEL, JSON.stringify({ denied: { tokenId, expiresAt } }));
    await sleep(25);
    live = await refused(pair.b, probe);
  }
  assert.ok(live, 'the other instance never received an announcement');
}

/** Whether a change is applied within 5 s; with the clock standing still, only an announcement can apply it. */
async function announced(applied: () => Promise<boolean>): Promise<boolean> {
  let done = await applied();
  for (let attempt = 0; attempt < 200 && !done; attempt += 1) {
    await sleep(25);
    done = await applied();
  }
  return done;
}

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

  it("closes nothing it shares: the tenancy cache it checks with is the runtime's", {
    skip: TEST_REDIS_URL ? false : 'needs REDIS_URL',
  }, async () => {
    const pair = await twoInstances({ TOKEN_CACHE_TTL_MS: String(TTL) }, () => START);
    try {
      await subscribed(pair);
      // Whatever a verifier has to close, closing it must not close the cache of its runtime.
      await (createTokenVerifier(pair.b.deps) as { close?: () => Promise<void> }).close?.();
      const [revocation] = changes();
      const { change, applied } = await (revocation as ReturnType<typeof changes>[number]).make(
        pair.a,
        pair.b,
      );
      await change();
      assert.ok(await announced(applied), 'the shared cache stopped hearing announcements');
    } finally {
      await pair.close();
    }
  });
});
