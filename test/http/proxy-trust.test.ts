import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { type ProxyTrust, proxyTrust } from '../../src/http/proxy-trust.js';
import { type DemoCredentials, seedDemo } from '../../src/services/tenancy/seed-demo.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../helpers/test-runtime.js';
import { requestToken } from './auth/oauth-fixtures.js';

const trustOf = (value: string) => proxyTrust(loadConfig({ TRUST_PROXY: value }).trustProxy) as ProxyTrust;

describe('proxyTrust', () => {
  it('trusts no peer without a setting', () => {
    assert.equal(proxyTrust(null), false);
  });

  it('trusts the listed networks at any hop, IPv4-mapped peers included, and nothing but addresses', () => {
    const trust = trustOf('10.0.0.0/8, 2001:db8::/32');
    const cases: [string, number, boolean][] = [
      ['10.0.0.2', 0, true],
      ['10.255.1.1', 5, true],
      ['::ffff:10.0.0.2', 0, true],
      ['2001:db8::7', 1, true],
      ['11.0.0.1', 0, false],
      ['203.0.113.9', 1, false],
      ['2001:db9::1', 0, false],
      ['x', 1, false],
      ['unknown', 0, false],
      ['', 0, false],
    ];
    for (const [address, hop, trusted] of cases)
      assert.equal(trust(address, hop), trusted, `${address} @${hop}`);
  });

  it('trusts the nearest hops whatever their addresses given a count alone, and within it given both', () => {
    const hops = trustOf('2');
    assert.deepEqual(
      [0, 1, 2].map((hop) => hops('203.0.113.1', hop)),
      [true, true, false],
    );
    const both = trustOf('10.0.0.0/8,1');
    assert.deepEqual(
      [both('10.0.0.2', 0), both('10.0.0.3', 1), both('203.0.113.1', 0)],
      [true, false, false],
    );
  });
});

/** The balancer in front, in TRUST_PROXY's network, and callers outside it. */
const BALANCER = '10.0.0.2';
const VICTIM = '198.51.100.77';

describe(`the caller's address behind a trusted balancer (TRUST_PROXY=10.0.0.0/8) on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  let demo: DemoCredentials;

  before(async () => {
    t = await createTestApp({ TRUST_PROXY: '10.0.0.0/8', AUTH_FAILURE_LIMIT: '10' });
    demo = await seedDemo(t.runtime.deps, { environment: 'production' });
  });
  after(() => t.close());

  /**
   * A token request from `caller` with `sent` as its X-Forwarded-For: through the balancer, which
   * appends the address it was called from, or straight to the listener.
   */
  const tokenRequest = (
    route: { caller: string; viaBalancer: boolean; sent?: string; reqId?: string },
    secret: string,
  ) => {
    const forwarded = route.viaBalancer
      ? [route.sent, route.caller].filter(Boolean).join(', ')
      : (route.sent ?? '');
    return requestToken(t.app, demo.clientId, secret, {
      remoteAddress: route.viaBalancer ? BALANCER : route.caller,
      headers: {
        ...(forwarded ? { 'x-forwarded-for': forwarded } : {}),
        ...(route.reqId ? { 'x-request-id': route.reqId } : {}),
      },
    });
  };
  const statuses = (answers: LightMyRequestResponse[]) => answers.map((res) => res.statusCode);

  it('counts wrong secrets against the caller, however it rotates what it writes in X-Forwarded-For', async () => {
    for (const viaBalancer of [true, false]) {
      const caller = viaBalancer ? '203.0.113.9' : '203.0.113.10';
      const answers: LightMyRequestResponse[] = [];
      for (let i = 0; i < 60; i += 1)
        answers.push(await tokenRequest({ caller, viaBalancer, sent: `192.0.2.${i + 1}` }, 'wrong'));
      assert.deepEqual(statuses(answers), [
        ...Array.from({ length: 10 }, () => 401),
        ...Array.from({ length: 50 }, () => 429),
      ]);
    }
  });

  it('lets no caller lock another out by naming its address', async () => {
    const spoofed = `${VICTIM}, x`;
    for (const [caller, viaBalancer] of [
      ['203.0.113.20', false],
      ['203.0.113.21', true],
    ] as const) {
      const answers: LightMyRequestResponse[] = [];
      for (let i = 0; i < 10; i += 1)
        answers.push(await tokenRequest({ caller, viaBalancer, sent: spoofed }, 'wrong'));
      assert.deepEqual(
        statuses(answers),
        answers.map(() => 401),
      );
    }
    const victim = await tokenRequest({ caller: VICTIM, viaBalancer: true }, demo.clientSecret);
    assert.equal(victim.statusCode, 200, victim.body);
  });

  it('writes the address it counted on the access line, not the one the caller wrote', async () => {
    const lineOf = (reqId: string) =>
      t.runtime.logs.lines
        .map((l) => JSON.parse(l) as { msg: string; reqId?: string; req?: { remoteAddress?: string } })
        .find((l) => l.msg === 'request completed' && l.reqId === reqId);
    await tokenRequest({ caller: '203.0.113.30', viaBalancer: true, sent: VICTIM, reqId: 'trust-1' }, 'x');
    await tokenRequest({ caller: '203.0.113.31', viaBalancer: false, sent: VICTIM, reqId: 'trust-2' }, 'x');
    assert.equal(lineOf('trust-1')?.req?.remoteAddress, '203.0.113.30');
    assert.equal(lineOf('trust-2')?.req?.remoteAddress, '203.0.113.31');
  });

  it('believes X-Forwarded-Host only from the balancer', async () => {
    const issuer = async (remoteAddress: string) =>
      (
        await t.app.inject({
          url: '/.well-known/oauth-authorization-server',
          remoteAddress,
          headers: { host: 'localhost:8080', 'x-forwarded-host': 'stg.localhost:8080' },
        })
      ).json().issuer;
    assert.equal(await issuer(BALANCER), 'http://stg.localhost:8080');
    assert.equal(await issuer('203.0.113.40'), 'http://localhost:8080');
  });
});

describe(`the caller's address behind one proxy (TRUST_PROXY=1) on ${TEST_DIALECT}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ TRUST_PROXY: '1' });
  });
  after(() => t.close());

  it('is the last address the proxy appended, whatever the caller wrote before it', async () => {
    await t.app.inject({
      url: '/healthz',
      remoteAddress: '192.0.2.50',
      headers: { host: 'localhost', 'x-forwarded-for': `${VICTIM}, 203.0.113.60`, 'x-request-id': 'hop-1' },
    });
    const line = t.runtime.logs.lines
      .map((l) => JSON.parse(l) as { reqId?: string; msg: string; req?: { remoteAddress?: string } })
      .find((l) => l.msg === 'request completed' && l.reqId === 'hop-1');
    assert.equal(line?.req?.remoteAddress, '203.0.113.60');
  });
});
