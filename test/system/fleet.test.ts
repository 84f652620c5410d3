import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { rpaProcessAgainst } from '../helpers/rpa-cli.js';
import { type Child, spawnRpa, waitForOutput } from './child-processes.js';
import { answerProblems, type FleetExit, grouped, notFine, type ScenarioResult } from './fleet-checks.js';
import {
  additiveMigration,
  type Fleet,
  LIMIT_PER_MINUTE,
  postgresStall,
  rollingRestart,
  sentinelFailover,
  startWithoutPostgres,
} from './fleet-scenarios.js';
import { freePort } from './free-port.js';
import { type Haproxy, hasHaproxy, startHaproxy } from './haproxy.js';
import { type Loop, Recorder, startLoop } from './load.js';
import { findPostgresBin, type OwnPostgres, startOwnPostgres } from './own-postgres.js';
import { hasRedisServer } from './own-redis.js';
import { type OwnSentinels, startOwnSentinels } from './own-sentinels.js';
import { exitReason, isRunning, type RpaInstance } from './rpa-process.js';
import { seedSystemTenant } from './system-tenant.js';
import { openTraffic, type Traffic } from './system-traffic.js';

/**
 * A fleet as it runs in production: three `rpa serve` instances behind HAProxy (health check
 * `GET /readyz` every 0.5 s), one `rpa worker`, a PostgreSQL and a Redis primary with a replica
 * and three Sentinels of the suite's own, under steady mixed traffic through HAProxy, while a
 * release and the dependencies' faults happen (docs/operations.md). Each scenario states what a
 * client may see; none may cost a call.
 */
const SCENARIOS: readonly [string, (fleet: Fleet) => Promise<ScenarioResult>][] = [
  [
    '1. an additive migration while serving: no call lost, no 500, during it and 10 s after',
    additiveMigration,
  ],
  ['2. a rolling restart: no call lost, HAProxy re-sends none', rollingRestart],
  // The failover last: on a release without Sentinel support the instances stay on the dead primary.
  [
    "4. a PostgreSQL stall of 8 s: every call answered within 3 s, never 500, every 503 the service's own, all fine 5 s after",
    postgresStall,
  ],
  [
    "5. an instance started while PostgreSQL is down: it stays up and issues a token within 15 s of PostgreSQL's start",
    startWithoutPostgres,
  ],
  [
    `3. a Sentinel failover: no 500, every 503 the service's own, 2xx within 20 s of the promotion, at most 33 admitted a minute on a ${LIMIT_PER_MINUTE}/min passkey`,
    sentinelFailover,
  ],
];
const SERVERS = ['serve1', 'serve2', 'serve3'];
/** Calls a second through HAProxy: the mix, and the limited passkey at four times its limit. */
const MIXED_PER_SECOND = 38;
const LIMITED_PER_SECOND = 2;
const HANG_BOUND_MS = 6_000;
const SERVE_ENV = { WORKER_ENABLED: 'false', SHUTDOWN_DELAY_MS: '1500' };

const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false;
const pgBin = findPostgresBin();
const missing = [
  ...(pgBin ? [] : ['the PostgreSQL server binaries (/usr/lib/postgresql/*/bin)']),
  ...(hasRedisServer() ? [] : ['redis-server']),
  ...(hasHaproxy() ? [] : ['haproxy']),
];
const skip = !onPostgres
  ? 'runs on the PostgreSQL + Redis pass only (DATABASE_URL=postgres://…)'
  : missing.length > 0 && process.env.CI !== 'true'
    ? `${missing.join(' and ')} not installed`
    : false;

describe('fleet: three servers behind HAProxy, a worker, PostgreSQL, Redis with Sentinels', { skip }, () => {
  const recorder = new Recorder(HANG_BOUND_MS);
  /** Calls to one instance, not through HAProxy. */
  const direct = new Recorder(3_000);
  const results = new Map<string, ScenarioResult>();
  const exits: FleetExit[] = [];
  const children = new Set<Child>();
  const stopping = new Set<ChildProcess>();
  const instances = new Map<string, RpaInstance>();
  const ports = new Map<string, number>();
  const loops: Loop[] = [];
  let dir: string | undefined;
  let postgres: OwnPostgres | undefined;
  let redis: OwnSentinels | undefined;
  let haproxy: Haproxy | undefined;
  let env: Record<string, string> = {};
  let traffic: Traffic | undefined;
  let baselineUntil = 0;

  // A last resort if the suite's process ends before `after` runs: nothing it started outlives it.
  const killAll = () => {
    for (const c of children) if (isRunning(c)) c.process.kill('SIGKILL');
  };
  const onSignal = () => process.exit(1);

  const watch = <C extends Child>(name: string, child: C): C => {
    children.add(child);
    void child.exited.then((code) =>
      exits.push({
        name,
        at: Date.now(),
        how: `${code === null ? `signal ${child.process.signalCode}` : `code ${code}`}: ${exitReason(child)}`,
        onPurpose: stopping.has(child.process),
      }),
    );
    return child;
  };
  /** `rpa serve` on `port`, as the fleet's instances run. */
  const serve = (name: string, port: number): RpaInstance => {
    const child = spawnRpa(['serve'], { ...env, ...SERVE_ENV, HOST: '127.0.0.1', PORT: String(port) });
    return watch(name, { ...child, name, port, base: `http://127.0.0.1:${port}` });
  };
  const stopChild = async (child: Child): Promise<string> => {
    stopping.add(child.process);
    if (isRunning(child)) child.process.kill('SIGTERM');
    const kill = setTimeout(() => child.process.kill('SIGKILL'), 15_000);
    const code = await child.exited;
    clearTimeout(kill);
    return code === null ? `signal ${child.process.signalCode}` : `exit code ${code}`;
  };

  before(
    async () => {
      if (missing.length > 0) throw new Error(`CI=true and ${missing.join(' and ')} missing`);
      // Exiting runs the `exit` handlers of every helper, which kill what they started.
      process.once('exit', killAll);
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
      const setupFrom = Date.now();
      dir = mkdtempSync(join(tmpdir(), 'rpa-system-fleet-'));
      postgres = await startOwnPostgres({ bin: pgBin ?? '', maxConnections: 100 });
      redis = await startOwnSentinels();
      env = {
        DATABASE_URL: postgres.url,
        DATABASE_SCHEMA: '',
        // The Sentinels name the primary; the pass's own REDIS_URL must not be inherited.
        REDIS_URL: '',
        REDIS_SENTINELS: redis.sentinels,
        REDIS_SENTINEL_MASTER: redis.masterName,
        METRICS_PORT: '',
        MIGRATE_ON_START: 'false',
      };
      const migrate = rpaProcessAgainst({ databaseUrl: postgres.url, schema: undefined }, env)('migrate');
      assert.equal(migrate.code, 0, `rpa migrate: ${migrate.stderr}`);
      const tenant = seedSystemTenant({
        env,
        dir,
        heavyPeople: 1,
        reviewsPerPerson: 1,
        limited: { perMinute: LIMIT_PER_MINUTE, perDay: 1_000_000 },
      });
      for (const name of SERVERS) ports.set(name, await freePort());
      await Promise.all(SERVERS.map((name) => fleet.startServer(name)));
      const worker = watch('worker', spawnRpa(['worker'], env));
      await bounded(waitForOutput(worker, /privacy worker started/), 30_000, 'rpa worker did not start');
      haproxy = await startHaproxy(ports);
      for (const name of SERVERS) await haproxy.waitUntilUp(name, 20_000);
      console.log(`fleet up ${Date.now() - setupFrom} ms after the suite began`);
      traffic = await openTraffic(haproxy.base, tenant);
      const targets = () => [{ name: 'haproxy', base: haproxy?.base ?? '' }];
      const bounds = { maxCalls: 20_000, maxMs: 8 * 60_000 };
      loops.push(
        startLoop(recorder, { targets, next: traffic.fleet, perSecond: MIXED_PER_SECOND, ...bounds }),
      );
      loops.push(
        startLoop(recorder, { targets, next: traffic.limited, perSecond: LIMITED_PER_SECOND, ...bounds }),
      );
      recorder.phase = 'baseline';
      await sleep(4_000);
      baselineUntil = Date.now();
      for (const [title, run] of SCENARIOS) {
        recorder.phase = title;
        results.set(title, await run(fleet).catch((err: unknown) => failed(title, err)));
        console.log(`${title}\n  seen: ${results.get(title)?.seen}`);
      }
      for (const loop of loops.splice(0)) await loop.stop();
    },
    { timeout: 6 * 60_000 },
  );

  after(async () => {
    for (const loop of loops.splice(0)) await loop.stop();
    postgres?.resume();
    await Promise.all([...children].map(stopChild));
    await haproxy?.destroy();
    await redis?.destroy();
    postgres?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
    process.off('exit', killAll);
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  });

  const fleet: Fleet = {
    recorder,
    get haproxy() {
      return haproxy as Haproxy;
    },
    get postgres() {
      return postgres as OwnPostgres;
    },
    get redis() {
      return redis as OwnSentinels;
    },
    exits,
    instances,
    async startServer(name) {
      const instance = serve(name, ports.get(name) as number);
      await bounded(waitForOutput(instance, /Server listening at/), 30_000, `${name} did not listen`);
      instances.set(name, instance);
      return instance;
    },
    stopServer: (name) => stopChild(instances.get(name) as Child),
    async startLoose(name) {
      const instance = serve(name, await freePort());
      return { instance, stop: async () => void (await stopChild(instance)) };
    },
    async token(base) {
      const a = await direct.send({ name: 'direct', base }, (traffic as Traffic).token());
      return typeof a.status === 'number' ? a.status : 'failed';
    },
  };

  it('serves every call through HAProxy before any scenario (the harness works)', () => {
    const baseline = recorder.answers.filter((a) => a.phase === 'baseline');
    assert.ok(baseline.length > 100, `only ${baseline.length} calls before the first scenario`);
    assert.deepEqual(answerProblems(baseline, { noneLost: true, no500: true, own503: true }), []);
    const bad = notFine(baseline, 0, baselineUntil);
    assert.equal(bad.length, 0, `${bad.length} calls not 2xx before any scenario:${grouped(bad)}`);
  });

  for (const [title] of [...SCENARIOS].sort(([a], [b]) => a.localeCompare(b))) {
    it(title, () => {
      const result = results.get(title);
      assert.ok(result, 'the scenario did not run');
      assert.equal(result.problems.length, 0, `\n  seen: ${result.seen}\n  ${result.problems.join('\n  ')}`);
    });
  }
});

/** `promise`, or a rejection naming `what` past `ms`. */
function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function failed(name: string, err: unknown): ScenarioResult {
  return {
    name,
    seen: 'did not run to its end',
    problems: [`it failed: ${err instanceof Error ? err.stack : err}`],
  };
}
