import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RpaResult, rpaAgainst, rpaProcessAgainst } from '../helpers/rpa-cli.js';
import { dropSchema, TEST_DATABASE_URL, uniqueSchema } from '../helpers/test-runtime.js';
import { admissions, describeUnacceptable, LIMITED_ROUTE, statusCounts } from './fault-checks.js';
import { type Answer, type Loop, Recorder, startLoop } from './load.js';
import { hasRedisServer } from './own-redis.js';
import { type OwnSentinels, startOwnSentinels } from './own-sentinels.js';
import { type RpaInstance, startInstance } from './rpa-process.js';
import type { SystemTenant } from './system-tenant.js';
import { openTraffic, type Traffic } from './system-traffic.js';

/**
 * Two `rpa serve` instances that follow a Redis primary through Sentinel (docs/operations.md,
 * Redis Sentinel), under a steady load, while the primary is killed and a replica promoted. Every
 * answer must be one a client can act on (never a 500), the calls must come back by themselves
 * soon after the promotion, a passkey's policy must hold across it, and changes announced after
 * it must still reach every instance at once.
 */
const LIMIT = { perMinute: 30, perDay: 100_000 };
/** Over the policy allowed in a minute that spans the failover (a tenth of it, rounded up). */
const FAILOVER_SLACK = Math.ceil(LIMIT.perMinute / 10);
const HANG_BOUND_MS = 5_000;
/** The limited passkey's calls a second: its minute's allowance lasts past the failover. */
const LIMITED_PER_SECOND = 3;
const STEADY_MS = 5_000;
const RECOVERY_BOUND_MS = 20_000;
const AFTER_RECOVERY_MS = 6_000;
/** Far longer than the test: a change reaches an instance through its announcement or not at all. */
const CACHE_TTL_MS = 60_000;
const ANNOUNCEMENT_BOUND_MS = 5_000;

/** The calls that must all be 2xx again after the failover (the limited passkey's may be 429). */
const MAIN = ['token', 'author'];

const onPostgres = TEST_DATABASE_URL.startsWith('postgres');
const skip = !onPostgres
  ? 'runs on the PostgreSQL + Redis pass only (DATABASE_URL=postgres://…)'
  : !hasRedisServer() && process.env.CI !== 'true'
    ? 'redis-server not installed'
    : false;

describe('Redis Sentinel failover: two servers follow the promoted replica', { skip }, () => {
  const recorder = new Recorder(HANG_BOUND_MS);
  const schema = uniqueSchema();
  let redis: OwnSentinels | undefined;
  let instances: RpaInstance[] = [];
  let env: Record<string, string> = {};
  let tenant: SystemTenant;
  let watchedPasskeyId: string;
  let watchedPasskey: string;
  /** Revoked while the primary is away, when its announcement can be lost. */
  let lost: { id: string; passkey: string };
  let lostRevoked: Promise<RpaResult> | undefined;
  let traffic: Traffic;
  let loops: Loop[] = [];
  let killedAt = 0;
  let switchedAt = 0;
  let recoveredAt: number | null = null;

  const rpa = () => rpaProcessAgainst({ databaseUrl: TEST_DATABASE_URL, schema }, env);
  const json = (...args: string[]) => {
    const r = rpa()(...args, '--json');
    assert.equal(r.code, 0, `rpa ${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  const createPasskey = (applicationId: string, perMinute: number) =>
    json(
      'passkeys',
      'create',
      '--app',
      applicationId,
      '--api',
      'response',
      '--rate-limit',
      String(perMinute),
      '--quota',
      String(LIMIT.perDay),
    );

  before(async () => {
    redis = await startOwnSentinels();
    env = {
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      // Never the shared Redis this pass may name: only the Sentinels' primary.
      REDIS_URL: '',
      REDIS_SENTINELS: redis.sentinels,
      REDIS_SENTINEL_MASTER: redis.masterName,
      TOKEN_CACHE_TTL_MS: String(CACHE_TTL_MS),
      WORKER_ENABLED: 'false',
    };
    const demo = json('demo').production;
    json('passkeys', 'update', demo.responsePasskeyId, '--rate-limit', '1000000', '--quota', '100000000');
    const limited = createPasskey(demo.applicationId, LIMIT.perMinute);
    const watched = createPasskey(demo.applicationId, 1_000_000);
    watchedPasskeyId = watched.id;
    watchedPasskey = watched.passkey;
    lost = createPasskey(demo.applicationId, 1_000_000);
    tenant = {
      clientId: demo.clientId,
      clientSecret: demo.clientSecret,
      responsePasskey: demo.responsePasskey,
      privacyPasskey: demo.privacyPasskey,
      limited: { passkey: limited.passkey, ...LIMIT },
      heavyPeople: [],
      reviewsPerHeavyPerson: 0,
    };
    instances = await Promise.all([startInstance('a', env), startInstance('b', env)]);
    traffic = await openTraffic(instances[0]!.base, tenant);
  });

  after(async () => {
    await Promise.all(loops.map((l) => l.stop()));
    for (const i of instances) i.process.kill('SIGKILL');
    await redis?.destroy();
    await dropSchema(TEST_DATABASE_URL, schema);
  });

  it('serves with the Sentinels’ primary as its Redis', async () => {
    for (const instance of instances) {
      const res = await fetch(`${instance.base}/readyz`);
      const body = (await res.json()) as { checks?: Record<string, string> };
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.checks?.redis, 'up', `${instance.name}: ${JSON.stringify(body)}`);
    }
  });

  it('answers every call through the failover, and comes back within 20 s of the promotion', async () => {
    assert.ok(redis);
    const targets = () => instances;
    loops = [
      startLoop(recorder, {
        targets,
        next: () => traffic.limited(),
        perSecond: LIMITED_PER_SECOND,
        maxCalls: 1_000,
        maxMs: 120_000,
      }),
      startLoop(recorder, {
        targets,
        // Token requests too: the failed-authentication throttle counts in the same Redis.
        next: (i) =>
          Math.floor(i / 2) % 2 === 0 ? traffic.mixed(0) : authorWith(tenant.responsePasskey, 'author'),
        perSecond: 4,
        maxCalls: 1_000,
        maxMs: 120_000,
      }),
    ];
    // Each instance caches the watched and the lost passkey before the failover.
    for (const instance of instances) {
      await recorder.send(instance, authorWith(watchedPasskey, 'watched'));
      await recorder.send(instance, authorWith(lost.passkey, 'watched'));
    }
    await sleep(STEADY_MS);
    recorder.phase = 'failover';
    killedAt = Date.now();
    await redis.killPrimary();
    // In this process, so that the load goes on meanwhile.
    lostRevoked = rpaAgainst({ databaseUrl: TEST_DATABASE_URL, schema }, env)(
      'passkeys',
      'update',
      lost.id,
      '--revoke',
    );
    switchedAt = await Promise.race([redis.switched, sleep(30_000).then(() => 0)]);
    assert.ok(switchedAt > 0, 'the Sentinels promoted no replica within 30 s');
    const deadline = switchedAt + RECOVERY_BOUND_MS;
    while (Date.now() < deadline && recoveredAt === null) {
      await sleep(500);
      recoveredAt = recovered(
        recorder.answers,
        killedAt,
        instances.map((i) => i.name),
      );
    }
    await sleep(AFTER_RECOVERY_MS);
    recorder.phase = 'after';
    assert.ok(
      recoveredAt !== null && recoveredAt <= deadline,
      `calls not 2xx again within ${RECOVERY_BOUND_MS / 1000} s of the promotion`,
    );
  });

  it('never answered 500, and every 503 came with Retry-After', (t) => {
    const during = recorder.answers.filter((a) => a.phase === 'failover');
    t.diagnostic(
      `during the failover (2xx/4xx/5xx/failed): ${statusCounts(during)}; promoted ${((switchedAt - killedAt) / 1000).toFixed(1)} s after the kill, calls 2xx again ${(((recoveredAt ?? Number.NaN) - switchedAt) / 1000).toFixed(1)} s after the promotion; admitted per minute: ${JSON.stringify([...admissions(recorder.answers).perMinute])}`,
    );
    assert.deepEqual(describeUnacceptable(recorder.answers), []);
    const failed = recorder.answers.filter((a) => a.status === 503);
    assert.ok(failed.every((a) => a.retryAfter));
  });

  it(`admits at most the policy in every minute, and ${FAILOVER_SLACK} more in one that spans the failover`, () => {
    const { perMinute } = admissions(recorder.answers);
    const spanning = new Set(
      [killedAt, switchedAt, recoveredAt ?? Date.now()].map((t) => new Date(t).toISOString().slice(0, 16)),
    );
    const over = [...perMinute].filter(
      ([minute, n]) => n > LIMIT.perMinute + (spanning.has(minute) ? FAILOVER_SLACK : 0),
    );
    assert.deepEqual(over, [], JSON.stringify([...perMinute]));
    const afterwards = recorder.answers.filter(
      (a) => a.route === LIMITED_ROUTE && a.at > (recoveredAt ?? 0) && a.status === 200,
    );
    const refused = recorder.answers.filter((a) => a.route === LIMITED_ROUTE && a.status === 429);
    assert.ok(
      afterwards.length > 0 || refused.some((a) => a.at > (recoveredAt ?? 0)),
      'no limited call answered after the failover',
    );
  });

  it('refuses on every instance a passkey revoked during the failover, whose announcement may be lost', async () => {
    const r = await lostRevoked;
    assert.equal(r?.code, 0, r?.stderr);
    for (const instance of instances) {
      const a = await recorder.send(instance, authorWith(lost.passkey, 'watched'));
      assert.ok(
        typeof a.status === 'number' && a.status >= 400 && a.status < 500,
        `${instance.name}: ${a.status} ${a.body}`,
      );
    }
  });

  it('still hears of a revocation announced after the failover', async () => {
    await Promise.all(loops.map((l) => l.stop()));
    // Cached again on the new primary's side of the failover (each reconnection drops the caches).
    for (const instance of instances) {
      const a = await recorder.send(instance, authorWith(watchedPasskey, 'watched'));
      assert.equal(a.status, 200, `${instance.name}: ${a.body}`);
    }
    json('passkeys', 'update', watchedPasskeyId, '--revoke');
    const revokedAt = Date.now();
    for (const instance of instances) {
      let last: Answer | undefined;
      while (Date.now() - revokedAt < ANNOUNCEMENT_BOUND_MS) {
        last = await recorder.send(instance, authorWith(watchedPasskey, 'watched'));
        if (last.status !== 200) break;
        await sleep(200);
      }
      assert.ok(
        last && last.status !== 200 && typeof last.status === 'number' && last.status < 500,
        `${instance.name} still admitted the revoked passkey ${ANNOUNCEMENT_BOUND_MS / 1000} s later: ${last?.status}`,
      );
    }
  });

  /** The author read the load makes, charged to `passkey`. */
  function authorWith(passkey: string, route: string) {
    const call = traffic.limited();
    return { ...call, route, path: call.path.replace(tenant.limited.passkey, passkey) };
  }
});

/**
 * The send time from which every main call was 2xx on every instance for at least two seconds,
 * after `since`; null while not.
 */
function recovered(answers: readonly Answer[], since: number, names: readonly string[]): number | null {
  const main = answers.filter((a) => MAIN.includes(a.route) && a.at >= since).sort((x, y) => x.at - y.at);
  let start = since;
  for (const a of main) if (!(typeof a.status === 'number' && a.status < 300)) start = a.at + 1;
  if (Date.now() - start < 2_000) return null;
  const stretch = main.filter((a) => a.at >= start);
  return names.every((n) => stretch.some((a) => a.instance === n)) ? start : null;
}
