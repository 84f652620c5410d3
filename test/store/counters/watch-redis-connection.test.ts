import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { CounterStoreUnavailable } from '../../../src/store/counters/counter-store.js';
import { watchRedisConnection } from '../../../src/store/counters/watch-redis-connection.js';
import { seedTestTenant, type TestTenant } from '../../helpers/credentials.js';
import { freePort, killRedis, startRedis } from '../../helpers/redis-server.js';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';
import { createTestApp, TEST_REDIS_URL, type TestApp } from '../../helpers/test-runtime.js';
import { requestToken } from '../../http/auth/oauth-fixtures.js';

const SETTLE_MS = 2000;
/** The settle period, a second the uptime can read long, and room to spare. */
const SETTLED_BOUND_MS = 10_000;

describe('the settle period after a Redis server starts', () => {
  let redis: ChildProcess | undefined;
  let client: Redis;

  before(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    client = new Redis(`redis://127.0.0.1:${port}`, { commandTimeout: 1000 });
    client.on('error', () => {});
  });
  after(async () => {
    client?.disconnect();
    await killRedis(redis);
  });

  it('answers nothing while the server is younger than the period, then settles, by its uptime', async () => {
    const watch = watchRedisConnection(client, { settleMs: SETTLE_MS, silenceMs: 3000, readyWaitMs: 2000 });
    await assert.rejects(watch.settled(), CounterStoreUnavailable, 'a server started moments ago');
    const until = Date.now() + SETTLED_BOUND_MS;
    for (;;) {
      try {
        await watch.settled();
        break;
      } catch (err) {
        assert.ok(err instanceof CounterStoreUnavailable);
        assert.ok(Date.now() < until, `still settling after ${SETTLED_BOUND_MS} ms`);
        await sleep(100);
      }
    }
    // Another instance connecting now finds the server up long enough: it waits for nothing.
    const late = watchRedisConnection(client, { settleMs: SETTLE_MS, silenceMs: 3000, readyWaitMs: 2000 });
    await late.settled();
  });
});

/** A TCP forwarder whose target can change: the old connections drop, the new ones reach the new target. */
async function startForwarder(target: number) {
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = connect(target, '127.0.0.1');
    for (const [a, b] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      sockets.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** Sends new connections to `to`, and drops the ones made so far. */
    retarget(to: number) {
      target = to;
      for (const s of sockets) s.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a connection made again to another server, up for long (a promoted replica)', () => {
  let first: ChildProcess | undefined;
  let second: ChildProcess | undefined;
  let forwarder: Awaited<ReturnType<typeof startForwarder>>;
  let client: Redis;
  const ports: number[] = [];

  before(async () => {
    ports.push(await freePort(), await freePort());
    [first, second] = await Promise.all(ports.map((p) => startRedis(p)));
    forwarder = await startForwarder(ports[0]!);
    client = new Redis(`redis://127.0.0.1:${forwarder.port}`, {
      commandTimeout: 1000,
      retryStrategy: () => 50,
    });
    client.on('error', () => {});
    // Both servers up for longer than the period, and the second a second more than it can read.
    await sleep(SETTLE_MS + 1500);
  });
  after(async () => {
    client?.disconnect();
    await forwarder?.close();
    await Promise.all([killRedis(first), killRedis(second)]);
  });

  const reconnect = async (to: number) => {
    const ready = new Promise((resolve) => client.once('ready', resolve));
    forwarder.retarget(to);
    await ready;
    return performance.now();
  };

  it('is settled from the moment it was reached, not from its uptime; the same server again is not', async () => {
    const watch = watchRedisConnection(client, { settleMs: SETTLE_MS, silenceMs: 3000, readyWaitMs: 2000 });
    await watch.settled();

    const reachedAt = await reconnect(ports[1]!);
    await assert.rejects(watch.settled(), CounterStoreUnavailable, 'another server, reached moments ago');
    for (;;) {
      try {
        await watch.settled();
        break;
      } catch (err) {
        assert.ok(err instanceof CounterStoreUnavailable);
        await sleep(100);
      }
    }
    assert.ok(performance.now() - reachedAt >= SETTLE_MS, 'settled before the period since it was reached');

    // A connection dropped and made again to the same server (a network fault) waits for nothing.
    await reconnect(ports[1]!);
    await watch.settled();
  });
});

describe('a Redis connection still being made', () => {
  it('is waited for before the server is asked how long it has been up', async (t) => {
    const url = process.env.REDIS_URL;
    if (!url) return t.skip('needs REDIS_URL');
    // As the runtime builds its client: no offline queue, so a command sent while connecting fails.
    const client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, commandTimeout: 1000 });
    client.on('error', () => {});
    try {
      const connecting = client.connect().catch(() => {});
      assert.equal(client.status, 'connecting');
      const watch = watchRedisConnection(client, { settleMs: 1, silenceMs: 3000, readyWaitMs: 2000 });
      await watch.settled();
      await connecting;
    } finally {
      client.disconnect();
    }
  });
});

const HOST = 'localhost:8080';
const REVIEWS = '/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1';
/** Far beyond the command timeout (1 s) and the wait for a connection under way (1 s). */
const ANSWER_BOUND_MS = 8000;
const RECOVERY_BOUND_MS = 20_000;

/** The request's answer, or null when none came within `ms`. */
async function within<T>(ms: number, pending: Promise<T>): Promise<T | null> {
  const timer = sleep(ms, null, { ref: false });
  return Promise.race([pending, timer]);
}

/** Charged calls until one is served, within RECOVERY_BOUND_MS. */
async function servedAgain(call: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  const until = Date.now() + RECOVERY_BOUND_MS;
  let last: LightMyRequestResponse | null = null;
  while (Date.now() < until) {
    last = await call();
    if (last.statusCode === 200) return last;
    await sleep(200);
  }
  assert.fail(`still ${last?.statusCode} ${last?.body} after ${RECOVERY_BOUND_MS} ms`);
}

describe('Redis stalled or gone, behind a proxy', { skip: !TEST_REDIS_URL && 'needs REDIS_URL' }, () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let tenant: TestTenant;

  const get = () =>
    t.app.inject({
      method: 'GET',
      url: `${REVIEWS}?passkey=${tenant.responsePasskey}`,
      headers: { host: HOST, authorization: `Bearer ${tenant.token}` },
    });
  const lines = () => t.runtime.logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const warnings = (msg: string) => lines().filter((l) => l.msg === msg);
  async function decisions(api: string, outcome: string): Promise<number> {
    const metric = t.runtime.deps.metrics.registry.getSingleMetric('rpa_limit_decisions_total');
    const { values } = await metric!.get();
    return values.find((v) => v.labels.api === api && v.labels.outcome === outcome)?.value ?? 0;
  }

  before(async () => {
    const target = new URL(TEST_REDIS_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    // Leases short enough that every call below goes to the store.
    t = await createTestApp({ REDIS_URL: proxy.url(TEST_REDIS_URL!), LIMIT_LEASE_MS: '10' });
    tenant = await seedTestTenant(t.runtime);
    assert.equal((await get()).statusCode, 200);
  });
  after(async () => {
    await t?.close();
    await proxy?.close();
  });

  it('answers a charged call during a stall with 503 and Retry-After, then serves again once it ends', async () => {
    await sleep(50);
    proxy.setMode('stall');
    const answer = await within(ANSWER_BOUND_MS, get());
    assert.ok(answer, `no answer within ${ANSWER_BOUND_MS} ms while Redis stalled`);
    assert.equal(answer.statusCode, 503, answer.body);
    assert.equal(answer.headers['retry-after'], '5');
    assert.match(String(answer.headers['content-type']), /^application\/vnd\.api\+json/);
    assert.equal(answer.json().errors[0].code, 'SERVICE_UNAVAILABLE');
    proxy.setMode('pass');
    const served = await servedAgain(get);
    assert.match(String(served.headers.ratelimit), /"minute";r=\d+/);
  });

  it('replaces a connection that answered nothing for three command timeouts, and serves again', async () => {
    let connections = 0;
    const counted = () => {
      connections += 1;
    };
    t.runtime.deps.redis!.on('ready', counted);
    try {
      await sleep(50);
      proxy.setMode('stall');
      const until = Date.now() + 4500;
      while (Date.now() < until) {
        const answer = await within(ANSWER_BOUND_MS, get());
        assert.equal(answer?.statusCode, 503);
      }
      proxy.setMode('pass');
      await servedAgain(get);
      assert.ok(connections >= 1, 'the silent connection was replaced by a new one');
    } finally {
      t.runtime.deps.redis!.off('ready', counted);
    }
  });

  it('refuses charged and token calls while Redis is gone, counting each, and serves again after', async () => {
    const tokensBefore = await decisions('auth', 'unavailable');
    const callsBefore = await decisions('response', 'unavailable');
    await sleep(50);
    proxy.setMode('refuse');
    for (let i = 0; i < 5; i += 1) {
      const answer = await within(ANSWER_BOUND_MS, get());
      assert.equal(answer?.statusCode, 503);
    }
    const token = await within(ANSWER_BOUND_MS, requestToken(t.app, tenant.clientId, tenant.clientSecret));
    assert.equal(token?.statusCode, 503, token?.body);
    assert.equal(token.json().error, 'temporarily_unavailable');
    assert.ok(token.headers['retry-after']);
    assert.equal(await decisions('response', 'unavailable'), callsBefore + 5);
    assert.equal(await decisions('auth', 'unavailable'), tokensBefore + 1);
    proxy.setMode('pass');
    await servedAgain(get);
    const issued = await servedAgain(() => requestToken(t.app, tenant.clientId, tenant.clientSecret));
    assert.equal(issued.statusCode, 200);
  });

  it('logged each outage once when it started and once when it ended, and no request line for its 503s', () => {
    const started = warnings('redis unavailable: outage started');
    const ended = warnings('redis available again: outage ended');
    assert.equal(started.length, 3, JSON.stringify(started));
    assert.equal(ended.length, 3, JSON.stringify(ended));
    const failed = lines().filter((l) => (l.level as number) >= 50 || l.msg === 'request failed');
    assert.deepEqual(failed, []);
    assert.doesNotMatch(t.runtime.logs.text(), /"stack"/);
  });
});
