import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Child } from '../privacy/privacy-processes.js';
import {
  admissions,
  type Dependency,
  describeUnacceptable,
  LIMITED_ROUTE,
  MAIN_ROUTES,
  type PhaseTimes,
  READY_ROUTE,
  readinessProblems,
  recoveredAt,
  statusCounts,
  within,
} from './fault-checks.js';
import { type Answer, type Call, type Loop, Recorder, startLoop, type Target } from './load.js';
import { findPostgresBin, type OwnPostgres, startOwnPostgres } from './own-postgres.js';
import { hasRedisServer, type OwnRedis, startOwnRedis } from './own-redis.js';
import { isRunning, lastLines, type RpaInstance, startInstance, startWorker } from './rpa-process.js';
import {
  exhaustConnections,
  remainingReviews,
  type SystemTenant,
  seedSystemTenant,
} from './system-tenant.js';

/**
 * Two `rpa serve` instances and one `rpa worker` on a PostgreSQL and a Redis of the suite's own,
 * under a steady load, while each dependency fails and comes back (docs/operations.md). Every
 * answer must be one a client can act on (never a 500, nor silence), the service must come back by
 * itself, every accepted privacy request must be carried out in full, and a passkey's policy must
 * hold throughout.
 */
const OUTAGE_MS = 6_000;
/** No answer within this is a hang: the Redis command timeout is 1 s, a refused connection instant. */
const HANG_BOUND_MS = 5_000;
const RECOVERY_WINDOW_MS = 3_000;
const RECOVERY_BOUND_MS = 20_000;
const COMPLETION_BOUND_MS = 25_000;
const MAX_CONNECTIONS = 40;
const HEAVY_PER_FAULT = 2;
const LIMITED = { perMinute: 20, perDay: 50 };

const FAULTS = [
  'PostgreSQL immediate stop',
  'PostgreSQL connections exhausted',
  'Redis killed, restarted empty',
  'Redis stalled (SIGSTOP)',
  'worker SIGKILLed mid-erasure',
] as const;
type FaultName = (typeof FAULTS)[number];

const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false;
const pgBin = findPostgresBin();
const missing = [
  ...(pgBin ? [] : ['the PostgreSQL server binaries (/usr/lib/postgresql/*/bin)']),
  ...(hasRedisServer() ? [] : ['redis-server']),
];
const skip = !onPostgres
  ? 'runs on the PostgreSQL + Redis pass only (DATABASE_URL=postgres://…)'
  : missing.length > 0 && process.env.CI !== 'true'
    ? `${missing.join(' and ')} not installed`
    : false;

interface Accepted {
  readonly id: string;
  readonly kind: 'forget' | 'access';
  readonly phase: string;
  readonly email: string;
  completed: boolean;
}

interface Finding {
  readonly row: string[];
  readonly problems: string[];
}

describe('dependency faults: two servers and a worker on their own PostgreSQL and Redis', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'rpa-system-'));
  const recorder = new Recorder(HANG_BOUND_MS);
  const polls = new Recorder(HANG_BOUND_MS);
  const accepted: Accepted[] = [];
  const exits: { name: string; at: number; how: string; onPurpose: boolean }[] = [];
  const findings = new Map<string, Finding>();
  let postgres: OwnPostgres | undefined;
  let redis: OwnRedis | undefined;
  let instances: RpaInstance[] = [];
  let worker: Child | undefined;
  let workerKilledOnPurpose = false;
  const loops: Loop[] = [];
  let tenant: SystemTenant;
  let token = '';
  let responseId = '';
  let env: Record<string, string> = {};

  const watch = (name: string, child: Child, onPurpose: () => boolean) => {
    void child.exited.then((code) =>
      exits.push({
        name,
        at: Date.now(),
        how: `${code === null ? `signal ${child.process.signalCode}` : `code ${code}`}: ${lastLines(child)}`,
        onPurpose: onPurpose(),
      }),
    );
  };

  const launchWorker = async () => {
    workerKilledOnPurpose = false;
    worker = await startWorker({
      ...env,
      WORKER_BATCH_SIZE: '10',
      WORKER_LEASE_MS: '3000',
      WORKER_POLL_INTERVAL_MS: '200',
    });
    const current = worker;
    watch('worker', current, () => workerKilledOnPurpose && current === worker);
  };

  const bearer = () => ({ authorization: `Bearer ${token}` });
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { ...bearer(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const track = (kind: 'forget' | 'access', email: string) => (a: Answer) => {
    if (a.status !== 201 && a.status !== 202) return;
    const id = (JSON.parse(a.body) as { id: string }).id;
    accepted.push({ id, kind, phase: a.phase, email, completed: false });
  };
  const privacyCall = (kind: 'forget' | 'access', email: string): Call => ({
    route: kind,
    path: `/privacy/v1/${kind}Requests?passkey=${tenant.privacyPasskey}`,
    init: json({ emailAddress: email }),
    onAnswer: track(kind, email),
  });
  const mainCall = (i: number): Call => {
    const author = {
      route: 'author',
      path: `/response/v1/clientResponses/${responseId}/author?passkey=${tenant.responsePasskey}`,
      init: { headers: bearer() },
    };
    const basic = Buffer.from(`${tenant.clientId}:${tenant.clientSecret}`).toString('base64');
    const tokenCall = {
      route: 'token',
      path: '/auth/v1/oauth2/token',
      init: {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      },
    };
    // Consecutive calls go to different instances, so every route reaches both.
    switch (Math.floor(i / 2) % 8) {
      case 0:
      case 1:
        return tokenCall;
      case 5:
        return privacyCall('forget', `load-forget-${i}@example.com`);
      case 6:
        return privacyCall('access', `load-access-${i}@example.com`);
      default:
        return author;
    }
  };

  before(
    async () => {
      if (missing.length > 0) throw new Error(`CI=true and ${missing.join(' and ')} missing`);
      postgres = await startOwnPostgres({ bin: pgBin ?? '', maxConnections: MAX_CONNECTIONS });
      redis = await startOwnRedis();
      env = { DATABASE_URL: postgres.url, DATABASE_SCHEMA: '', REDIS_URL: redis.url, METRICS_PORT: '' };
      tenant = seedSystemTenant({
        env,
        dir,
        heavyPeople: HEAVY_PER_FAULT * FAULTS.length,
        reviewsPerPerson: 3000,
        limited: LIMITED,
      });
      instances = await Promise.all(
        ['serve#1', 'serve#2'].map((name) => startInstance(name, { ...env, WORKER_ENABLED: 'false' })),
      );
      for (const i of instances) watch(i.name, i, () => false);
      await launchWorker();
      await prepareCalls();

      const targets = (): readonly Target[] => instances;
      const bounds = { maxCalls: 20_000, maxMs: 12 * 60_000 };
      loops.push(startLoop(recorder, { targets, next: mainCall, perSecond: 16, ...bounds }));
      loops.push(
        startLoop(recorder, {
          targets,
          next: () => ({
            route: LIMITED_ROUTE,
            path: `/response/v1/clientResponses/${responseId}/author?passkey=${tenant.limited.passkey}`,
            init: { headers: bearer() },
          }),
          perSecond: 4,
          ...bounds,
        }),
      );
      // Each instance's /readyz every 0.5 s.
      loops.push(
        startLoop(recorder, {
          targets,
          next: () => ({ route: READY_ROUTE, path: '/readyz' }),
          perSecond: 2 * instances.length,
          ...bounds,
        }),
      );
      recorder.phase = 'baseline';
      await sleep(4_000);
      for (const fault of FAULTS) findings.set(fault, await runFault(fault));
      for (const loop of loops.splice(0)) await loop.stop();
      printTable();
    },
    { timeout: 15 * 60_000 },
  );

  after(async () => {
    for (const loop of loops.splice(0)) await loop.stop();
    for (const child of [...instances, ...(worker ? [worker] : [])]) {
      if (isRunning(child)) child.process.kill('SIGKILL');
      await child.exited;
    }
    await redis?.destroy();
    postgres?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A token and a response whose author the load reads, made through the API as a client would. */
  async function prepareCalls() {
    const first = instances[0] as RpaInstance;
    const basic = Buffer.from(`${tenant.clientId}:${tenant.clientSecret}`).toString('base64');
    const t = await fetch(`${first.base}/auth/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    assert.equal(t.status, 200, await t.clone().text());
    token = ((await t.json()) as { access_token: string }).access_token;
    const r = await fetch(
      `${first.base}/response/v1/clientResponses/Acme-EN_GB/reviews/demo-acme-en_gb-1?passkey=${tenant.responsePasskey}`,
      json({ data: { type: 'clientResponse', attributes: { department: 'Care', response: 'Thank you!' } } }),
    );
    assert.equal(r.status, 200, await r.clone().text());
    responseId = ((await r.json()) as { data: { id: string } }).data.id;
  }

  function faultActions(fault: FaultName): {
    dependency: Dependency | null;
    inject(): Promise<() => Promise<void>>;
  } {
    const pgServer = postgres as OwnPostgres;
    const redisServer = redis as OwnRedis;
    switch (fault) {
      case 'PostgreSQL immediate stop':
        return {
          dependency: 'database',
          inject: async () => {
            await pgServer.stopImmediately();
            return () => pgServer.start();
          },
        };
      case 'PostgreSQL connections exhausted':
        // Not required to read as down: an instance whose pool still holds connections serves on.
        return {
          dependency: null,
          inject: async () => {
            const hold = await exhaustConnections(pgServer.url, MAX_CONNECTIONS + 10);
            assert.match(hold.refusal, /too many clients/, `held ${hold.held} connections`);
            return async () => void (await hold.release());
          },
        };
      case 'Redis killed, restarted empty':
        return {
          dependency: 'redis',
          inject: async () => {
            await redisServer.kill();
            return () => redisServer.start();
          },
        };
      case 'Redis stalled (SIGSTOP)':
        return {
          dependency: 'redis',
          inject: async () => {
            redisServer.pause();
            return async () => redisServer.resume();
          },
        };
      case 'worker SIGKILLed mid-erasure':
        return {
          dependency: null,
          inject: async () => {
            const killed = worker as Child;
            workerKilledOnPurpose = true;
            killed.process.kill('SIGKILL');
            await killed.exited;
            return launchWorker;
          },
        };
    }
  }

  async function runFault(fault: FaultName): Promise<Finding> {
    const index = FAULTS.indexOf(fault);
    const people = tenant.heavyPeople.slice(index * HEAVY_PER_FAULT, (index + 1) * HEAVY_PER_FAULT);
    const startedAt = Date.now();
    recorder.phase = fault;
    polls.phase = fault;
    const filed = await Promise.all(
      people.map((email, n) =>
        polls.send(instances[n % instances.length] as Target, privacyCall('forget', email)),
      ),
    );
    // The fault hits while these erasures are under way (or at once, if the worker does not take them).
    await waitFor(async () => {
      const left = await remainingReviews(postgres?.url ?? '', people);
      return left !== null && [...left.values()].some((n) => n < tenant.reviewsPerHeavyPerson);
    }, 10_000);
    const { dependency, inject } = faultActions(fault);
    const faultAt = Date.now();
    const restore = await inject();
    await sleep(OUTAGE_MS);
    await restore();
    const restoredAt = Date.now();

    const alive = () => instances.filter(isRunning).map((i) => i.name);
    let back: number | null = null;
    await waitFor(async () => {
      back = recoveredAt(recorder.answers, {
        since: restoredAt,
        now: Date.now(),
        windowMs: RECOVERY_WINDOW_MS,
        instances: instances.map((i) => i.name),
      });
      return back !== null;
    }, RECOVERY_BOUND_MS);
    await waitForCompletion();
    const left = (await remainingReviews(postgres?.url ?? '', people)) ?? new Map<string, number>();
    const times: PhaseTimes = { startedAt, faultAt, restoredAt, endedAt: Date.now() };

    const problems: string[] = [];
    for (const e of exits.filter((x) => x.at >= startedAt && !x.onPurpose))
      problems.push(`${e.name} exited (${e.how})`);
    const answers = within(recorder.answers, faultAt, times.endedAt);
    const load = answers.filter((a) => a.route !== READY_ROUTE);
    for (const line of describeUnacceptable([...answers, ...within(polls.answers, startedAt, times.endedAt)]))
      problems.push(`unacceptable answers: ${line}`);
    const filedLate = filed.filter((a) => a.status !== 201);
    if (filedLate.length > 0)
      problems.push(`forget requests filed before the fault: ${filedLate.map((a) => a.status).join(', ')}`);
    if (back === null)
      problems.push(
        `main calls not all 2xx for ${RECOVERY_WINDOW_MS / 1000} s within ${RECOVERY_BOUND_MS / 1000} s of recovery (alive: ${alive().join(', ') || 'none'})`,
      );
    const mine = accepted.filter((r) => r.phase === fault);
    const pending = mine.filter((r) => !r.completed);
    if (pending.length > 0)
      problems.push(
        `${pending.length} of ${mine.length} accepted privacy requests not COMPLETED within ${COMPLETION_BOUND_MS / 1000} s`,
      );
    const notErased = [...left].filter(([, n]) => n > 0);
    const halfErased = notErased.filter(([, n]) => n < tenant.reviewsPerHeavyPerson).length;
    for (const [email, n] of notErased)
      problems.push(
        `${email.replace(/@.*/, '@…')} still has ${n} of ${tenant.reviewsPerHeavyPerson} reviews`,
      );
    const admitted = admissions(recorder.answers.filter((a) => a.at <= times.endedAt));
    const minutes = [...admitted.perMinute].filter(
      ([m]) => m >= new Date(startedAt - 60_000).toISOString().slice(0, 16),
    );
    const maxMinute = Math.max(0, ...minutes.map(([, n]) => n));
    const today = Math.max(0, ...admitted.perDay.values());
    for (const [minute, n] of minutes)
      if (n > LIMITED.perMinute)
        problems.push(
          `limited passkey: ${n} calls admitted in minute ${minute} (limit ${LIMITED.perMinute})`,
        );
    if (today > LIMITED.perDay)
      problems.push(`limited passkey: ${today} calls admitted today (quota ${LIMITED.perDay})`);
    for (const instance of instances)
      problems.push(...readinessProblems(recorder.answers, { instance: instance.name, dependency, times }));

    const recovery =
      back === null
        ? `> ${RECOVERY_BOUND_MS / 1000}`
        : (Math.max(0, (back as number) - restoredAt) / 1000).toFixed(1);
    const row = [
      fault,
      String(load.length),
      statusCounts(load),
      String(pending.length),
      String(halfErased),
      `${maxMinute}/${LIMITED.perMinute} per min, ${today}/${LIMITED.perDay} per day`,
      recovery,
    ];
    await sleep(1_000);
    return { row, problems };
  }

  /** Polls every accepted privacy request through the API until all are COMPLETED, or the bound. */
  async function waitForCompletion() {
    await waitFor(async () => {
      const target = instances.find(isRunning);
      if (!target) return true;
      const open = accepted.filter((r) => !r.completed);
      await Promise.all(
        open.map(async (r) => {
          const a = await polls.send(target, {
            route: `poll ${r.kind}`,
            path: `/privacy/v1/${r.kind}Requests/${r.id}?passkey=${tenant.privacyPasskey}`,
            init: { headers: bearer() },
          });
          if (a.status === 200 && (JSON.parse(a.body) as { status: string }).status === 'COMPLETED')
            r.completed = true;
        }),
      );
      // Without a worker nothing more will complete: one look is enough.
      return accepted.every((r) => r.completed) || !worker || !isRunning(worker);
    }, COMPLETION_BOUND_MS);
  }

  function printTable() {
    const header = [
      'fault',
      'requests',
      '2xx/4xx/5xx/failed',
      'accepted not completed',
      'half-erased people',
      'admitted vs limit',
      's to recover',
    ];
    const baseline = within(recorder.answers, 0, Number.POSITIVE_INFINITY).filter(
      (a) => a.phase === 'baseline' && a.route !== READY_ROUTE,
    );
    console.log(`baseline: ${baseline.length} requests, ${statusCounts(baseline)}`);
    console.log(header.join(' | '));
    for (const fault of FAULTS) console.log((findings.get(fault)?.row ?? [fault, 'did not run']).join(' | '));
  }

  it('serves every call before any fault (the harness works)', () => {
    const baseline = recorder.answers.filter((a) => a.phase === 'baseline' && MAIN_ROUTES.includes(a.route));
    assert.ok(baseline.length > 20, `only ${baseline.length} calls before the first fault`);
    assert.deepEqual(describeUnacceptable(baseline), []);
    const statuses = new Set(baseline.map((a) => `${a.route} ${a.status}`));
    assert.deepEqual(
      [...statuses].filter((s) => !/ 20[01]$/.test(s)),
      [],
      [...statuses].join(', '),
    );
  });

  for (const fault of FAULTS) {
    it(`${fault}: acceptable answers, recovery, requests carried out, limits held`, () => {
      const finding = findings.get(fault);
      assert.ok(finding, 'the fault did not run');
      assert.equal(finding.problems.length, 0, `\n${finding.problems.join('\n')}`);
    });
  }
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Checks `done` every 250 ms until it holds or `boundMs` has passed; never throws for the bound. */
async function waitFor(done: () => Promise<boolean>, boundMs: number): Promise<boolean> {
  const until = Date.now() + boundMs;
  while (Date.now() < until) {
    if (await done()) return true;
    await sleep(250);
  }
  return false;
}
