import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '../helpers/eventually.js';
import type { Child } from './child-processes.js';
import { type Assessment, assessFault, type ProcessExit, TABLE_HEADER } from './fault-assessment.js';
import {
  describeUnacceptable,
  LIMITED_ROUTE,
  MAIN_ROUTES,
  READY_ROUTE,
  recoveredAt,
  statusCounts,
} from './fault-checks.js';
import { FAULTS, type FaultName, fault } from './faults.js';
import { type Loop, Recorder, startLoop, type Target } from './load.js';
import { findPostgresBin, type OwnPostgres, startOwnPostgres } from './own-postgres.js';
import { hasRedisServer, type OwnRedis, startOwnRedis } from './own-redis.js';
import { exitReason, isRunning, type RpaInstance, startInstance, startWorker } from './rpa-process.js';
import { remainingReviews, type SystemTenant, seedSystemTenant } from './system-tenant.js';
import { openTraffic, type Traffic } from './system-traffic.js';

/**
 * Two `rpa serve` instances and one `rpa worker` on a PostgreSQL and a Redis of the suite's own,
 * under a steady load, while each dependency fails and comes back (docs/operations.md). Every
 * answer must be one a client can act on (never a 500, nor silence), the service must come back
 * by itself, every accepted privacy request must be carried out in full, and a passkey's policy
 * must hold throughout.
 */
const OUTAGE_MS = 6_000;
/**
 * No answer within this counts as a hang: a refused connection fails at once, and a dependency
 * that stops answering should be given up on within about a second, not waited for.
 */
const HANG_BOUND_MS = 5_000;
const RECOVERY_WINDOW_MS = 3_000;
const RECOVERY_BOUND_MS = 20_000;
const COMPLETION_BOUND_MS = 30_000;
/** Concurrent calls sent to each instance halfway through an outage, as a spike of traffic would. */
const SPIKE = 12;
const MAX_CONNECTIONS = 40;
const HEAVY_PER_FAULT = 2;
const REVIEWS_PER_PERSON = 2_000;
/** A day quota the load reaches after the Redis faults, so that both windows are tested across them. */
const LIMITED = { perMinute: 20, perDay: 70 };
const WORKER_ENV = { WORKER_BATCH_SIZE: '25', WORKER_LEASE_MS: '3000', WORKER_POLL_INTERVAL_MS: '200' };

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

describe('dependency faults: two servers and a worker on their own PostgreSQL and Redis', { skip }, () => {
  const recorder = new Recorder(HANG_BOUND_MS);
  const polls = new Recorder(HANG_BOUND_MS);
  const exits: ProcessExit[] = [];
  const killedOnPurpose = new Set<Child>();
  const assessments = new Map<FaultName, Assessment>();
  const loops: Loop[] = [];
  let dir: string | undefined;
  let postgres: OwnPostgres;
  let redis: OwnRedis | undefined;
  let instances: RpaInstance[] = [];
  let worker: Child | undefined;
  let tenant: SystemTenant;
  let traffic: Traffic;
  let env: Record<string, string> = {};

  const watch = (name: string, child: Child) => {
    void child.exited.then((code) =>
      exits.push({
        name,
        at: Date.now(),
        phase: recorder.phase,
        how: `${code === null ? `signal ${child.process.signalCode}` : `code ${code}`}: ${exitReason(child)}`,
        onPurpose: killedOnPurpose.has(child),
      }),
    );
  };
  const launchWorker = async () => {
    worker = await startWorker({ ...env, ...WORKER_ENV });
    watch('worker', worker);
  };
  const killWorker = async () => {
    const killed = worker as Child;
    killedOnPurpose.add(killed);
    killed.process.kill('SIGKILL');
    await killed.exited;
  };

  before(
    async () => {
      if (missing.length > 0) throw new Error(`CI=true and ${missing.join(' and ')} missing`);
      dir = mkdtempSync(join(tmpdir(), 'rpa-system-'));
      postgres = await startOwnPostgres({ bin: pgBin ?? '', maxConnections: MAX_CONNECTIONS });
      redis = await startOwnRedis();
      env = { DATABASE_URL: postgres.url, DATABASE_SCHEMA: '', REDIS_URL: redis.url, METRICS_PORT: '' };
      tenant = seedSystemTenant({
        env,
        dir,
        heavyPeople: HEAVY_PER_FAULT * FAULTS.length,
        reviewsPerPerson: REVIEWS_PER_PERSON,
        limited: LIMITED,
      });
      instances = await Promise.all(
        ['serve#1', 'serve#2'].map((name) => startInstance(name, { ...env, WORKER_ENABLED: 'false' })),
      );
      for (const i of instances) watch(i.name, i);
      await launchWorker();
      traffic = await openTraffic((instances[0] as RpaInstance).base, tenant);

      const targets = (): readonly Target[] => instances;
      const bounds = { maxCalls: 20_000, maxMs: 12 * 60_000 };
      loops.push(startLoop(recorder, { targets, next: traffic.mixed, perSecond: 16, ...bounds }));
      loops.push(startLoop(recorder, { targets, next: traffic.limited, perSecond: 4, ...bounds }));
      // Each instance's /readyz every 0.5 s.
      const probe = () => ({ route: READY_ROUTE, path: '/readyz' });
      loops.push(startLoop(recorder, { targets, next: probe, perSecond: 2 * instances.length, ...bounds }));
      recorder.phase = 'baseline';
      await sleep(4_000);
      for (const name of FAULTS) assessments.set(name, await runFault(name));
      for (const loop of loops.splice(0)) await loop.stop();
      await waitForCompletion(Date.now());
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
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function runFault(name: FaultName): Promise<Assessment> {
    const index = FAULTS.indexOf(name);
    const people = tenant.heavyPeople.slice(index * HEAVY_PER_FAULT, (index + 1) * HEAVY_PER_FAULT);
    const { dependency, inject } = fault(name, {
      postgres,
      redis: redis as OwnRedis,
      killWorker,
      startWorker: launchWorker,
    });
    // Counters lost with Redis would let the limited passkey through again: hit Redis once this
    // minute's limit is met, early enough that the fault and its recovery fall in the same minute.
    if (dependency === 'redis') await waitFor(async () => minuteLimitMet(), 65_000);
    const startedAt = Date.now();
    recorder.phase = name;
    polls.phase = name;
    await Promise.all(
      people.map((email, n) => polls.send(instances[n % 2] as Target, traffic.forget(email))),
    );
    // The fault hits while these erasures are under way (or at once, if no worker takes them).
    await waitFor(async () => {
      const left = await remainingReviews(postgres.url, people);
      return left !== null && [...left.values()].some((n) => n < REVIEWS_PER_PERSON);
    }, 10_000);
    const faultAt = Date.now();
    const restore = await inject();
    await sleep(OUTAGE_MS / 2);
    let spiked = 0;
    await Promise.all(
      instances.flatMap((target) =>
        Array.from({ length: SPIKE }, () => recorder.send(target, traffic.spike(spiked++))),
      ),
    );
    await sleep(OUTAGE_MS / 2);
    await restore();
    const restoredAt = Date.now();

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
    const completionFrom = Date.now();
    await waitForCompletion(completionFrom);
    const left = (await remainingReviews(postgres.url, people)) ?? new Map(people.map((p) => [p, -1]));
    const assessment = assessFault({
      fault: name,
      times: { startedAt, faultAt, restoredAt, endedAt: Date.now() },
      dependency,
      answers: recorder.answers,
      polls: polls.answers,
      exits,
      instances: instances.map((i) => i.name),
      accepted: traffic.accepted,
      left,
      reviewsPerPerson: REVIEWS_PER_PERSON,
      limit: LIMITED,
      recoveredAt: back,
      completionFrom,
      bounds: {
        recoveryMs: RECOVERY_BOUND_MS,
        windowMs: RECOVERY_WINDOW_MS,
        completionMs: COMPLETION_BOUND_MS,
      },
    });
    await sleep(1_000);
    return assessment;
  }

  /** Whether the limited passkey was refused in this minute, with at least 20 s of it left. */
  function minuteLimitMet(): boolean {
    const now = new Date();
    if (now.getUTCSeconds() >= 40) return false;
    const minute = now.toISOString().slice(0, 16);
    return recorder.answers.some(
      (a) =>
        a.route === LIMITED_ROUTE &&
        a.status === 429 &&
        a.date !== null &&
        new Date(a.date).toISOString().slice(0, 16) === minute,
    );
  }

  /**
   * Polls the accepted privacy requests through the API until all those sent by `until` are
   * COMPLETED, or the bound.
   */
  async function waitForCompletion(until: number) {
    const due = () => traffic.accepted.filter((r) => r.at <= until);
    await waitFor(async () => {
      const target = instances.find(isRunning);
      if (!target) return true;
      await Promise.all(
        traffic.accepted
          .filter((r) => !r.completed)
          .map(async (r) => {
            const a = await polls.send(target, traffic.poll(r));
            if (a.status === 200 && (JSON.parse(a.body) as { status: string }).status === 'COMPLETED')
              r.completed = true;
          }),
      );
      // Without a worker nothing more completes: one look is enough.
      return due().every((r) => r.completed) || !worker || !isRunning(worker);
    }, COMPLETION_BOUND_MS);
  }

  function printTable() {
    const baseline = recorder.answers.filter((a) => a.phase === 'baseline' && a.route !== READY_ROUTE);
    console.log(`baseline: ${baseline.length} requests, 2xx/4xx/5xx/failed ${statusCounts(baseline)}`);
    console.log(TABLE_HEADER.join(' | '));
    for (const name of FAULTS) console.log((assessments.get(name)?.row ?? [name, 'did not run']).join(' | '));
    const pending = traffic.accepted.filter((r) => !r.completed).length;
    console.log(
      `in the end: ${pending} of ${traffic.accepted.length} accepted privacy requests not COMPLETED`,
    );
  }

  it('serves every call before any fault (the harness works)', () => {
    const baseline = recorder.answers.filter((a) => a.phase === 'baseline' && MAIN_ROUTES.includes(a.route));
    assert.ok(baseline.length > 20, `only ${baseline.length} calls before the first fault`);
    assert.deepEqual(describeUnacceptable(baseline), []);
    const statuses = [...new Set(baseline.map((a) => `${a.route} ${a.status}`))];
    assert.deepEqual(
      statuses.filter((s) => !/ 20[01]$/.test(s)),
      [],
    );
  });

  it('carries out every privacy request it accepted, by the end', () => {
    const pending = traffic.accepted.filter((r) => !r.completed);
    const byPhase = [...new Set(pending.map((r) => r.phase))].map(
      (phase) => `${pending.filter((r) => r.phase === phase).length} accepted during "${phase}"`,
    );
    assert.equal(pending.length, 0, `not COMPLETED: ${byPhase.join(', ')}`);
  });

  for (const name of FAULTS) {
    it(`${name}: acceptable answers, recovery, requests carried out, limits held`, () => {
      const assessment = assessments.get(name);
      assert.ok(assessment, 'the fault did not run');
      assert.equal(assessment.problems.length, 0, `\n${assessment.problems.join('\n')}`);
    });
  }
});
