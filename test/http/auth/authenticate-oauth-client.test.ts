import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { AppError } from '../../../src/errors.js';
import { buildServer } from '../../../src/http/build-server.js';
import type {
  AuthAttempt,
  AuthFailureThrottle,
  AuthListener,
} from '../../../src/services/auth/create-auth-failure-throttle.js';
import { type DemoCredentials, seedDemo } from '../../../src/services/tenancy/seed-demo.js';
import {
  createTestApp,
  createTestRuntime,
  type TestApp,
  type TestRuntime,
} from '../../helpers/test-runtime.js';
import { basicAuth, postForm, REVOKE_PATH, requestToken } from './oauth-fixtures.js';

const LIMIT = 3;

function assertThrottled(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 429, res.body);
  assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/);
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(typeof res.json().error, 'string');
  assert.equal(res.json().access_token, undefined);
}

/**
 * Records how the endpoints use the throttle, and refuses whatever it is told to: `blocked` as
 * attempts start (an instance that has seen them fail out), `failedOut` at the verdict (the shared
 * counters). When `held`, it settles verdicts within the turn, as the in-process counters do,
 * otherwise through a promise, as a shared store does.
 */
class SpyThrottle implements AuthFailureThrottle {
  readonly calls: string[] = [];
  blocked = new Set<string>();
  failedOut = new Set<string>();
  constructor(readonly held: boolean) {}

  attempt(listener: AuthListener, clientId: string, address: string): AuthAttempt {
    // The token and revocation endpoints count apart from the admin listener.
    assert.equal(listener, 'token');
    this.calls.push(`attempt ${clientId} ${address}`);
    const refuseIn = (scopes: Set<string>) => {
      if (scopes.has(String(clientId)) || scopes.has(address)) {
        throw new AppError('TOO_MANY_FAILED_ATTEMPTS', { headers: { 'retry-after': '30' } });
      }
    };
    refuseIn(this.blocked);
    const verdict = (name: string) => (): Promise<void> | undefined => {
      this.calls.push(`${name} ${clientId} ${address}`);
      if (!this.held) return Promise.resolve().then(() => refuseIn(this.failedOut));
      refuseIn(this.failedOut);
      return undefined;
    };
    return {
      failed: verdict('failure'),
      succeeded: verdict('success'),
      unauthorized: verdict('unauthorized'),
    };
  }

  async close() {}
}

for (const held of [false, true])
  describe(`client authentication and the failure throttle (${held ? 'answered within the turn' : 'waited for'})`, () => {
    let runtime: TestRuntime;
    let app: FastifyInstance;
    let demo: DemoCredentials;
    const spy = new SpyThrottle(held);

    before(async () => {
      runtime = await createTestRuntime();
      app = await buildServer({ ...runtime.http, authThrottle: spy });
      await app.ready();
      demo = await seedDemo(runtime.deps, { environment: 'production' });
    });
    after(async () => {
      await app.close();
      await runtime.close();
    });

    it('counts a failure against client id and address, and clears on success', async () => {
      spy.calls.length = 0;
      await requestToken(app, demo.clientId, 'wrong', { remoteAddress: '10.1.0.1' });
      await requestToken(app, demo.clientId, demo.clientSecret, { remoteAddress: '10.1.0.1' });
      assert.deepEqual(spy.calls, [
        `attempt ${demo.clientId} 10.1.0.1`,
        `failure ${demo.clientId} 10.1.0.1`,
        `attempt ${demo.clientId} 10.1.0.1`,
        `success ${demo.clientId} 10.1.0.1`,
      ]);
    });

    it('answers no verdict the counters refuse: a wrong secret and a right one get the same 429', async () => {
      spy.calls.length = 0;
      spy.failedOut = new Set(['10.1.0.9']);
      const wrong = await requestToken(app, demo.clientId, 'wrong', { remoteAddress: '10.1.0.9' });
      const right = await requestToken(app, demo.clientId, demo.clientSecret, { remoteAddress: '10.1.0.9' });
      spy.failedOut = new Set();
      assertThrottled(wrong);
      assertThrottled(right);
      assert.deepEqual(wrong.json(), right.json());
      assert.deepEqual(spy.calls, [
        `attempt ${demo.clientId} 10.1.0.9`,
        `failure ${demo.clientId} 10.1.0.9`,
        `attempt ${demo.clientId} 10.1.0.9`,
        `success ${demo.clientId} 10.1.0.9`,
      ]);
    });

    it('counts no failure for requests that present no credentials or are malformed', async () => {
      spy.calls.length = 0;
      await postForm(app, '/auth/v1/oauth2/token', { body: { grant_type: 'client_credentials' } });
      await requestToken(app, demo.clientId, demo.clientSecret, { extra: { grant_type: 'password' } });
      assert.deepEqual(
        spy.calls.filter((c) => c.startsWith('failure')),
        [],
      );
      // Nor do they start an attempt.
      assert.deepEqual(spy.calls, []);
    });

    it('answers a blocked client id or address with 429 and Retry-After, in the OAuth shape, on both endpoints', async () => {
      spy.blocked = new Set([demo.clientId]);
      assertThrottled(await requestToken(app, demo.clientId, demo.clientSecret));
      assertThrottled(
        await postForm(app, REVOKE_PATH, {
          body: { token: 'rpa_at_x' },
          headers: { authorization: basicAuth(demo.clientId, demo.clientSecret) },
        }),
      );
      spy.blocked = new Set(['10.2.0.1']);
      assertThrottled(
        await requestToken(app, demo.clientId, demo.clientSecret, { remoteAddress: '10.2.0.1' }),
      );
      assert.equal(
        (await requestToken(app, demo.clientId, demo.clientSecret, { remoteAddress: '10.2.0.2' })).statusCode,
        200,
      );
      spy.blocked = new Set();
    });
  });

describe(`brute-force protection (AUTH_FAILURE_LIMIT=${LIMIT})`, () => {
  let t: TestApp;
  let a: DemoCredentials;
  let b: DemoCredentials;
  let c: DemoCredentials;
  let d: DemoCredentials;
  let e: DemoCredentials;
  let f: DemoCredentials;

  before(async () => {
    t = await createTestApp({
      AUTH_FAILURE_LIMIT: String(LIMIT),
      // One client id's worth: an address fails out with the first client id that does (the
      // looser address count is tested below).
      AUTH_FAILURE_ADDRESS_LIMIT: String(LIMIT),
      AUTH_FAILURE_WINDOW_SECONDS: '300',
    });
    a = await seedDemo(t.runtime.deps, { environment: 'production' });
    b = await seedDemo(t.runtime.deps, { environment: 'production' });
    c = await seedDemo(t.runtime.deps, { environment: 'production' });
    d = await seedDemo(t.runtime.deps, { environment: 'production' });
    e = await seedDemo(t.runtime.deps, { environment: 'production' });
    f = await seedDemo(t.runtime.deps, { environment: 'production' });
  });
  after(() => t.close());

  it('blocks a client id from an address after repeated failures there, even with the right secret', async () => {
    for (let i = 1; i <= LIMIT; i += 1) {
      const res = await requestToken(t.app, a.clientId, `wrong-${i}`, { remoteAddress: '10.10.0.1' });
      assert.equal(res.statusCode, 401);
    }
    assertThrottled(await requestToken(t.app, a.clientId, a.clientSecret, { remoteAddress: '10.10.0.1' }));
    assertThrottled(
      await postForm(t.app, REVOKE_PATH, {
        body: { token: 'rpa_at_x' },
        headers: { authorization: basicAuth(a.clientId, a.clientSecret) },
        remoteAddress: '10.10.0.1',
      }),
    );
    // Other clients, and the same client from elsewhere, are not affected.
    assert.equal(
      (await requestToken(t.app, b.clientId, b.clientSecret, { remoteAddress: '10.10.1.3' })).statusCode,
      200,
    );
    assert.equal(
      (await requestToken(t.app, a.clientId, a.clientSecret, { remoteAddress: '10.10.1.4' })).statusCode,
      200,
    );
  });

  it('blocks an address after repeated failures, whatever client id it tries next', async () => {
    for (let i = 1; i <= LIMIT; i += 1) {
      const res = await requestToken(t.app, `rpa_ci_guess${i}`, 'wrong', { remoteAddress: '10.20.0.1' });
      assert.equal(res.statusCode, 401);
    }
    assertThrottled(await requestToken(t.app, c.clientId, c.clientSecret, { remoteAddress: '10.20.0.1' }));
    assert.equal(
      (await requestToken(t.app, c.clientId, c.clientSecret, { remoteAddress: '10.20.0.2' })).statusCode,
      200,
    );
  });

  it('never locks a client out for failures from other addresses', async () => {
    // LIMIT wrong secrets for client e, one from each of LIMIT addresses...
    for (let i = 1; i <= LIMIT; i += 1) {
      const res = await requestToken(t.app, e.clientId, `wrong-${i}`, { remoteAddress: `10.40.0.${i}` });
      assert.equal(res.statusCode, 401);
    }
    // ...and the right secret from an address that has not failed is served, on both endpoints.
    assert.equal(
      (await requestToken(t.app, e.clientId, e.clientSecret, { remoteAddress: '10.40.1.1' })).statusCode,
      200,
    );
    const revoked = await postForm(t.app, REVOKE_PATH, {
      body: { token: 'rpa_at_x' },
      headers: { authorization: basicAuth(e.clientId, e.clientSecret) },
      remoteAddress: '10.40.1.2',
    });
    assert.equal(revoked.statusCode, 200, revoked.body);
    // An address that failed too often for the client is refused, even with the right secret.
    for (let i = 1; i <= LIMIT; i += 1) {
      const res = await requestToken(t.app, e.clientId, `wrong-${i}`, { remoteAddress: '10.40.2.1' });
      assert.equal(res.statusCode, 401);
    }
    assertThrottled(await requestToken(t.app, e.clientId, e.clientSecret, { remoteAddress: '10.40.2.1' }));
    assertThrottled(
      await postForm(t.app, REVOKE_PATH, {
        body: { token: 'rpa_at_x' },
        headers: { authorization: basicAuth(e.clientId, e.clientSecret) },
        remoteAddress: '10.40.2.1',
      }),
    );
    assert.equal(
      (await requestToken(t.app, e.clientId, e.clientSecret, { remoteAddress: '10.40.1.3' })).statusCode,
      200,
    );
  });

  it("a success clears the client id's failures from its address, not another client id's", async () => {
    // From one address: LIMIT - 1 failures, a success, LIMIT - 1 failures again, a success.
    for (let round = 0; round < 2; round += 1) {
      for (let i = 1; i < LIMIT; i += 1) {
        const res = await requestToken(t.app, f.clientId, 'wrong', { remoteAddress: '10.50.0.1' });
        assert.equal(res.statusCode, 401);
      }
      const ok = await requestToken(t.app, f.clientId, f.clientSecret, { remoteAddress: '10.50.0.1' });
      assert.equal(ok.statusCode, 200, ok.body);
    }
    // Failures against another client id stay counted against the address after f's success.
    for (let i = 1; i < LIMIT; i += 1) {
      const res = await requestToken(t.app, `rpa_ci_other${i}`, 'wrong', { remoteAddress: '10.50.0.1' });
      assert.equal(res.statusCode, 401);
    }
    assert.equal(
      (await requestToken(t.app, f.clientId, f.clientSecret, { remoteAddress: '10.50.0.1' })).statusCode,
      200,
    );
    assert.equal(
      (await requestToken(t.app, 'rpa_ci_other', 'wrong', { remoteAddress: '10.50.0.1' })).statusCode,
      401,
    );
    assertThrottled(await requestToken(t.app, f.clientId, f.clientSecret, { remoteAddress: '10.50.0.1' }));
  });

  it("a successful authentication clears the client id's failures", async () => {
    for (let round = 0; round < 2; round += 1) {
      for (let i = 1; i < LIMIT; i += 1) {
        const res = await requestToken(t.app, d.clientId, 'wrong', { remoteAddress: `10.30.${round}.${i}` });
        assert.equal(res.statusCode, 401);
      }
      const ok = await requestToken(t.app, d.clientId, d.clientSecret, { remoteAddress: `10.30.${round}.9` });
      assert.equal(ok.statusCode, 200);
    }
  });
});

describe('brute-force protection under concurrency (AUTH_FAILURE_LIMIT=10)', () => {
  let t: TestApp;
  let a: DemoCredentials;

  before(async () => {
    t = await createTestApp({ AUTH_FAILURE_LIMIT: '10', AUTH_FAILURE_WINDOW_SECONDS: '300' });
    a = await seedDemo(t.runtime.deps, { environment: 'production' });
  });
  after(() => t.close());

  it('answers at most the limit of wrong secrets as such when 200 arrive at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        requestToken(t.app, a.clientId, `wrong-${i}`, { remoteAddress: '10.60.0.1' }),
      ),
    );
    const rejected = answers.filter((res) => res.statusCode === 401);
    const throttled = answers.filter((res) => res.statusCode === 429);
    assert.equal(rejected.length, 10);
    assert.equal(throttled.length, 190);
    for (const res of rejected) assert.equal(res.json().error, 'invalid_client');
    for (const res of throttled) assertThrottled(res);
  });

  it('serves a burst of right secrets from one address in full', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        requestToken(t.app, a.clientId, a.clientSecret, { remoteAddress: '10.60.0.2' }),
      ),
    );
    assert.deepEqual(
      answers.map((res) => res.statusCode),
      answers.map(() => 200),
    );
  });
});

describe(`callers sharing an address (AUTH_FAILURE_LIMIT=${LIMIT}, AUTH_FAILURE_ADDRESS_LIMIT=${3 * LIMIT})`, () => {
  let t: TestApp;
  let a: DemoCredentials;
  let b: DemoCredentials;

  before(async () => {
    t = await createTestApp({
      AUTH_FAILURE_LIMIT: String(LIMIT),
      AUTH_FAILURE_ADDRESS_LIMIT: String(3 * LIMIT),
      AUTH_FAILURE_WINDOW_SECONDS: '300',
    });
    a = await seedDemo(t.runtime.deps, { environment: 'production' });
    b = await seedDemo(t.runtime.deps, { environment: 'production' });
  });
  after(() => t.close());

  const statuses = async (clientIds: string[], secret: string, remoteAddress: string) => {
    const codes: number[] = [];
    for (const id of clientIds)
      codes.push((await requestToken(t.app, id, secret, { remoteAddress })).statusCode);
    return codes;
  };

  it('refuses one client failing out behind a NAT, and serves the others there', async () => {
    const nat = '10.70.0.1';
    const failing = Array.from({ length: LIMIT + 2 }, () => a.clientId);
    assert.deepEqual(await statuses(failing, 'wrong', nat), [
      ...Array.from({ length: LIMIT }, () => 401),
      429,
      429,
    ]);
    assertThrottled(await requestToken(t.app, a.clientId, a.clientSecret, { remoteAddress: nat }));
    const other = await requestToken(t.app, b.clientId, b.clientSecret, { remoteAddress: nat });
    assert.equal(other.statusCode, 200, other.body);
  });

  it('refuses the address once failures across client ids reach the address limit', async () => {
    const nat = '10.70.0.2';
    const guesses = Array.from({ length: 3 * LIMIT }, (_, i) => `rpa_ci_nat${i}`);
    assert.deepEqual(
      await statuses(guesses, 'wrong', nat),
      guesses.map(() => 401),
    );
    assertThrottled(await requestToken(t.app, b.clientId, b.clientSecret, { remoteAddress: nat }));
    assert.equal(
      (await requestToken(t.app, b.clientId, b.clientSecret, { remoteAddress: '10.70.0.3' })).statusCode,
      200,
    );
  });
});
