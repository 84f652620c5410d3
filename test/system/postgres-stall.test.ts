import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeUnacceptable, MAIN_ROUTES, statusCounts, within } from './fault-checks.js';
import { type Answer, type Loop, Recorder, startLoop, type Target } from './load.js';
import { findPostgresBin, type OwnPostgres, startOwnPostgres } from './own-postgres.js';
import { isRunning, type RpaInstance, startInstance } from './rpa-process.js';
import { seedSystemTenant } from './system-tenant.js';
import { openTraffic } from './system-traffic.js';

/**
 * Three `rpa serve` instances on a PostgreSQL of their own, under steady calls, while every
 * process of that PostgreSQL is stopped (SIGSTOP) for a while: its connections stay open and
 * nothing is answered, as with a hung server or network (docs/operations.md, Failure modes).
 * Every call must still be answered in time, as a client can act on (503 with Retry-After, never
 * 500), and the service must be back to normal shortly after the database is.
 */
const STALL_MS = 8_000;
/** No answer within this counts as none: the statement deadlines answer in about 2 s. */
const ANSWER_BOUND_MS = 3_000;
/** From the end of the stall until every call must succeed again, and how long that is watched. */
const SETTLE_MS = 5_000;
const WATCH_MS = 4_000;
const CALLS_PER_SECOND = 40;

const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false;
const pgBin = findPostgresBin();
const skip = !onPostgres
  ? 'runs on the PostgreSQL + Redis pass only (DATABASE_URL=postgres://…)'
  : !pgBin && process.env.CI !== 'true'
    ? 'the PostgreSQL server binaries (/usr/lib/postgresql/*/bin) not installed'
    : false;

describe('a stalled PostgreSQL under three servers', { skip }, () => {
  const recorder = new Recorder(ANSWER_BOUND_MS);
  let dir: string | undefined;
  let postgres: OwnPostgres | undefined;
  let instances: RpaInstance[] = [];
  let loop: Loop | undefined;
  let pausedAt = 0;
  let resumedAt = 0;
  let endedAt = 0;

  before(
    async () => {
      if (!pgBin) throw new Error('CI=true and the PostgreSQL server binaries missing');
      dir = mkdtempSync(join(tmpdir(), 'rpa-system-'));
      postgres = await startOwnPostgres({ bin: pgBin, maxConnections: 60 });
      // Without Redis every call's counters are in PostgreSQL too.
      const env = { DATABASE_URL: postgres.url, DATABASE_SCHEMA: '', REDIS_URL: '', METRICS_PORT: '' };
      const tenant = seedSystemTenant({
        env,
        dir,
        heavyPeople: 1,
        reviewsPerPerson: 10,
        limited: { perMinute: 1000, perDay: 100_000 },
      });
      instances = await Promise.all(
        ['serve#1', 'serve#2', 'serve#3'].map((name) => startInstance(name, env)),
      );
      const traffic = await openTraffic((instances[0] as RpaInstance).base, tenant);
      loop = startLoop(recorder, {
        targets: (): readonly Target[] => instances,
        next: traffic.mixed,
        perSecond: CALLS_PER_SECOND,
        maxCalls: 5_000,
        maxMs: 60_000,
      });
      recorder.phase = 'baseline';
      await sleep(3_000 + ANSWER_BOUND_MS);
      recorder.phase = 'stall';
      pausedAt = Date.now();
      postgres.pause();
      await sleep(STALL_MS);
      postgres.resume();
      resumedAt = Date.now();
      recorder.phase = 'after';
      await sleep(SETTLE_MS + WATCH_MS);
      endedAt = Date.now();
      await loop.stop();
      const stall = within(recorder.answers, pausedAt, resumedAt);
      console.log(`calls sent during the stall: ${stall.length}, 2xx/4xx/5xx/failed ${statusCounts(stall)}`);
    },
    { timeout: 5 * 60_000 },
  );

  after(async () => {
    await loop?.stop();
    for (const child of instances) {
      if (isRunning(child)) child.process.kill('SIGKILL');
      await child.exited;
    }
    postgres?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const main = (answers: readonly Answer[]) => answers.filter((a) => MAIN_ROUTES.includes(a.route));

  it('serves every call before the stall (the harness works)', () => {
    // Those sent shortly before it may still be waiting when it begins.
    const baseline = main(
      recorder.answers.filter((a) => a.phase === 'baseline' && a.at < pausedAt - ANSWER_BOUND_MS),
    );
    assert.ok(baseline.length > 40, `only ${baseline.length} calls before the stall`);
    assert.deepEqual(
      baseline
        .filter((a) => a.status !== 200 && a.status !== 201 && a.status !== 202)
        .map((a) => `${a.at - pausedAt} ms: ${a.instance} ${a.route} ${a.status} ${a.body.slice(0, 120)}`),
      [],
    );
  });

  it(`answers every call within ${ANSWER_BOUND_MS / 1000} s during the stall, never 500, 503 with Retry-After`, () => {
    const during = within(recorder.answers, pausedAt, resumedAt);
    assert.ok(during.length > (STALL_MS / 1000) * CALLS_PER_SECOND * 0.8, `only ${during.length} calls`);
    assert.deepEqual(describeUnacceptable(during), []);
    // The stall was felt: calls that needed the database were refused, not served.
    assert.ok(
      during.some((a) => a.status === 503),
      `no 503 during the stall: ${statusCounts(during)}`,
    );
  });

  it(`answers every call as usual from ${SETTLE_MS / 1000} s after the stall`, () => {
    const afterwards = within(recorder.answers, resumedAt, endedAt);
    assert.deepEqual(describeUnacceptable(afterwards), []);
    const settled = main(within(recorder.answers, resumedAt + SETTLE_MS, endedAt));
    assert.ok(settled.length > 40, `only ${settled.length} calls`);
    const failed = settled.filter((a) => a.status !== 200 && a.status !== 201 && a.status !== 202);
    assert.deepEqual(
      failed.map((a) => `${a.instance} ${a.route} ${a.status} ${a.body.slice(0, 120)}`),
      [],
    );
  });
});
