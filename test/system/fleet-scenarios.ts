import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { waitFor } from '../helpers/eventually.js';
import { admissions, LIMITED_ROUTE, recoveredAt, statusCounts, within } from './fault-checks.js';
import {
  answerProblems,
  exitProblems,
  type FleetExit,
  grouped,
  notFine,
  type ScenarioResult,
  seconds,
  summary,
} from './fleet-checks.js';
import type { Haproxy, ServerStats } from './haproxy.js';
import type { Recorder } from './load.js';
import type { OwnPostgres } from './own-postgres.js';
import type { OwnSentinels } from './own-sentinels.js';
import type { RpaInstance } from './rpa-process.js';

/** What the scenarios act on. */
export interface Fleet {
  readonly recorder: Recorder;
  readonly haproxy: Haproxy;
  readonly postgres: OwnPostgres;
  readonly redis: OwnSentinels;
  readonly exits: readonly FleetExit[];
  /** The instances behind HAProxy, by server name. */
  readonly instances: Map<string, RpaInstance>;
  /** Starts the instance of a server name on its port (it does not wait for it to be UP). */
  startServer(name: string): Promise<RpaInstance>;
  /** SIGTERM, on purpose; resolves with how it ended. */
  stopServer(name: string): Promise<string>;
  /** Starts `rpa serve` outside HAProxy, not waiting for it to listen. */
  startLoose(name: string): Promise<{ instance: RpaInstance; stop(): Promise<void> }>;
  /** Tries a token from an instance directly; its status or `failed`. */
  token(base: string): Promise<number | 'failed'>;
}

/** The limit of the limited passkey and what may be admitted in a minute across a failover. */
export const LIMIT_PER_MINUTE = 30;
const ADMITTED_AT_MOST = 33;

/** 1. `ALTER TABLE … ADD COLUMN` (nullable) on every table while serving. */
export async function additiveMigration(fleet: Fleet): Promise<ScenarioResult> {
  const from = Date.now();
  const { tables, retries } = await addNullableColumns(fleet.postgres.url);
  const done = Date.now();
  await sleep(10_000);
  const answers = within(fleet.recorder.answers, from, done + 10_000);
  return {
    name: 'additive migration',
    seen: `${tables} tables altered in ${done - from} ms (${retries} tried again); ${summary(answers)}`,
    problems: [
      ...answerProblems(answers, { noneLost: true, no500: true }),
      ...exitProblems(fleet.exits, from, Date.now()),
    ],
  };
}

/**
 * Adds a nullable column to every table, one `ALTER TABLE` at a time, as an online migration is
 * run: each takes its table's ACCESS EXCLUSIVE lock alone (all in one transaction can deadlock
 * with the traffic's transactions), and waits at most 1 s for it (`lock_timeout`), so a long
 * transaction does not queue every call to that table behind the migration; then it tries again.
 */
async function addNullableColumns(url: string): Promise<{ tables: number; retries: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let retries = 0;
  try {
    const { rows } = await client.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = current_schema() and tablename not like 'kysely%'",
    );
    await client.query("set lock_timeout = '1s'");
    for (const { name } of rows) {
      for (;;) {
        try {
          await client.query(`alter table "${name}" add column fleet_note text`);
          break;
        } catch (err) {
          // lock_not_available, deadlock_detected: try again, as a migration tool would.
          const code = (err as { code?: string }).code;
          if ((code !== '55P03' && code !== '40P01') || retries >= 20) throw err;
          retries += 1;
          await sleep(100);
        }
      }
    }
    return { tables: rows.length, retries };
  } finally {
    await client.end();
  }
}

/** 2. SIGTERM to each instance in turn, its replacement started and UP before the next. */
export async function rollingRestart(fleet: Fleet): Promise<ScenarioResult> {
  const from = Date.now();
  const before = await fleet.haproxy.stats();
  const logFrom = fleet.haproxy.log().length;
  const ends: string[] = [];
  for (const name of [...fleet.instances.keys()]) {
    const stopped = Date.now();
    ends.push(`${name}: ${await fleet.stopServer(name)} after ${seconds(Date.now() - stopped)}`);
    await fleet.startServer(name);
    await fleet.haproxy.waitUntilUp(name, 20_000);
    ends.push(`${name} UP again ${seconds(Date.now() - stopped)} after SIGTERM`);
  }
  await sleep(2_000);
  const to = Date.now();
  const resends = resendsBetween(before, await fleet.haproxy.stats());
  const retried = fleet.haproxy
    .log()
    .slice(logFrom)
    .filter((line) => (line.split(' ')[3] ?? '0') !== '0');
  const answers = within(fleet.recorder.answers, from, to);
  // Not "no 500": an instance started before the scenario may still fail as the scenario before
  // left it; a restart is what ends that.
  const problems = answerProblems(answers, { noneLost: true });
  if (resends.total > 0 || retried.length > 0)
    problems.push(
      `HAProxy re-sent requests: ${resends.text}; ${retried.length} log lines with retries:${retried
        .slice(0, 5)
        .map((l) => `\n    ${l}`)
        .join('')}`,
    );
  return {
    name: 'rolling restart',
    seen: `${summary(answers)}; ${resends.text}; ${ends.join(', ')}`,
    problems: [...problems, ...exitProblems(fleet.exits, from, to)],
  };
}

function resendsBetween(before: Map<string, ServerStats>, after: Map<string, ServerStats>) {
  const keys = ['retries', 'redispatches', 'connectionErrors', 'responseErrors'] as const;
  const totals = Object.fromEntries(keys.map((k) => [k, 0])) as Record<(typeof keys)[number], number>;
  for (const [name, now] of after) for (const k of keys) totals[k] += now[k] - (before.get(name)?.[k] ?? 0);
  return {
    total: keys.reduce((sum, k) => sum + totals[k], 0),
    text: keys.map((k) => `${k} ${totals[k]}`).join(', '),
  };
}

/** 3. The Redis primary SIGKILLed; the Sentinels promote its replica. */
export async function sentinelFailover(fleet: Fleet): Promise<ScenarioResult> {
  // A failover that loses the counters would let the limited passkey through again: fail over
  // once this minute's limit is met, early enough that the recovery falls in the same minute.
  await waitFor(async () => minuteLimitMet(fleet), 65_000);
  const from = Date.now();
  await fleet.redis.killPrimary();
  const promotedAt = await Promise.race([
    fleet.redis.switched,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000).unref()),
  ]);
  const problems: string[] = [];
  if (promotedAt === null) problems.push('the Sentinels promoted no replica within 30 s');
  const promoted = promotedAt ?? Date.now();
  let back: number | null = null;
  await waitFor(async () => {
    back = recoveredAt(fleet.recorder.answers, {
      since: promoted,
      now: Date.now(),
      windowMs: 3_000,
      instances: ['haproxy'],
    });
    return back !== null && back - promoted <= 20_000;
  }, 23_000);
  // The failover's minute is counted to its end.
  const minuteEnd = Math.ceil((from + 1) / 60_000) * 60_000;
  await sleep(Math.max(0, minuteEnd + 1_500 - Date.now()));
  const to = Date.now();
  const answers = within(fleet.recorder.answers, from, to);
  problems.push(...answerProblems(answers, { noneLost: true, no500: true, own503: true }));
  const recovery = back === null ? null : Math.max(0, (back as number) - promoted);
  if (recovery === null || recovery > 20_000)
    problems.push(
      `not every call 2xx for 3 s within 20 s of the promotion; after it: 2xx/4xx/5xx/failed ${statusCounts(
        within(answers, promoted, to),
      )}, not 2xx:${grouped(notFine(answers, promoted, to).slice(-20))}`,
    );
  // Each minute the failover touched, counted in full.
  const firstMinute = new Date(from).toISOString().slice(0, 16);
  const minutes = [...admissions(fleet.recorder.answers).perMinute].filter(([m]) => m >= firstMinute);
  for (const [minute, n] of minutes)
    if (n > ADMITTED_AT_MOST)
      problems.push(`limited passkey (${LIMIT_PER_MINUTE}/min): ${n} calls admitted in minute ${minute}Z`);
  return {
    name: 'Sentinel failover',
    seen: `promoted ${promotedAt === null ? 'never' : `${seconds(promoted - from)} after the kill`}; 2xx ${
      recovery === null ? 'not back' : `back ${seconds(recovery)} after the promotion`
    }; ${summary(answers)}; limited admitted per minute ${minutes.map(([m, n]) => `${m.slice(11)} ${n}`).join(', ')}`,
    problems: [...problems, ...exitProblems(fleet.exits, from, to)],
  };
}

/** Whether the limited passkey was refused in this minute, with at least 30 s of it left. */
function minuteLimitMet(fleet: Fleet): boolean {
  const now = new Date();
  if (now.getUTCSeconds() >= 30) return false;
  const minute = now.toISOString().slice(0, 16);
  return fleet.recorder.answers.some(
    (a) =>
      a.route === LIMITED_ROUTE &&
      a.status === 429 &&
      a.date !== null &&
      new Date(a.date).toISOString().slice(0, 16) === minute,
  );
}

/** 4. Every process of the PostgreSQL cluster SIGSTOPped for 8 s. */
export async function postgresStall(fleet: Fleet): Promise<ScenarioResult> {
  const from = Date.now();
  fleet.postgres.pause();
  await sleep(8_000);
  fleet.postgres.resume();
  const resumed = Date.now();
  // The calls sent up to 5 s after are answered (or given up on) before these are read.
  await sleep(11_000);
  const during = within(fleet.recorder.answers, from, resumed + 5_000);
  const afterwards = notFine(fleet.recorder.answers, resumed + 5_000, resumed + 8_000);
  const problems = answerProblems(during, { noneLost: true, no500: true, own503: true, withinMs: 3_000 });
  if (afterwards.length > 0)
    problems.push(`${afterwards.length} calls not 2xx from 5 s after the stall ended:${grouped(afterwards)}`);
  return {
    name: 'PostgreSQL stall',
    seen: `${summary(during)} in the stall and 5 s after; ${afterwards.length} not 2xx after`,
    problems: [...problems, ...exitProblems(fleet.exits, from, Date.now())],
  };
}

/** 5. An instance started while PostgreSQL is down, then PostgreSQL started. */
export async function startWithoutPostgres(fleet: Fleet): Promise<ScenarioResult> {
  const from = Date.now();
  await fleet.postgres.stopImmediately();
  const late = await fleet.startLoose('late');
  const problems: string[] = [];
  let seen = '';
  try {
    await sleep(3_000);
    await fleet.postgres.start();
    const pgStarted = Date.now();
    const statuses = new Map<string, number>();
    let issued: number | null = null;
    while (Date.now() < pgStarted + 15_000 && issued === null) {
      if (late.instance.process.exitCode !== null || late.instance.process.signalCode !== null) break;
      const status = await fleet.token(late.instance.base);
      statuses.set(String(status), (statuses.get(String(status)) ?? 0) + 1);
      if (status === 200) issued = Date.now();
      else await sleep(250);
    }
    const tried = [...statuses].map(([s, n]) => `${n} x ${s}`).join(', ');
    const exit = fleet.exits.find((e) => e.name === 'late' && !e.onPurpose);
    const exited = exit ? `exited ${seconds(exit.at - from)} after PostgreSQL stopped` : '';
    seen =
      issued === null
        ? `no token (${exited || tried})`
        : `a token ${seconds(issued - pgStarted)} after PostgreSQL started`;
    if (exit)
      problems.push(
        `the instance started without PostgreSQL ${exited} (it started again after ${seconds(pgStarted - from)}): ${exit.how}`,
      );
    if (issued === null)
      problems.push(`no token within 15 s of PostgreSQL's start (tried: ${tried || 'nothing'})`);
  } finally {
    await late.stop();
  }
  for (const name of fleet.instances.keys()) await fleet.haproxy.waitUntilUp(name, 20_000);
  return { name: 'start without PostgreSQL', seen, problems };
}
