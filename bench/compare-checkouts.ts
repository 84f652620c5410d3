/**
 * Server CPU per request of two or more checkouts of this project, measured in turns: each
 * checkout is built, seeded and served (`rpa serve`, as `npm run bench` serves it) on a database
 * of its own, and every round sends each server the same fixed number of requests from
 * bench/load.ts, one server after another. A change is judged by its checkout against the one
 * before it, under the same neighbours: on a shared machine a figure of one run moves by more
 * than most changes do, and turns give every checkout the same drift.
 *
 *   git worktree add /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/node_modules
 *   node --import tsx bench/compare-checkouts.ts --checkouts /tmp/before,. --scenario token
 *        [--db sqlite|postgres] [--n 30000] [--rounds 8] [--connections 50] [--log-level warn]
 *
 * Scenarios: `author` (GET a response's author), `token` (POST a client-credentials token) and
 * `privacy` (POST forgetRequests, each for a person no request named before; the worker is off,
 * so the server only files them).
 *
 * Writes, per checkout, its revision, the median and the least CPU per request over the rounds,
 * each round's figure and its median against the first's, and the same for requests answered per
 * second, to a new file under bench/results/ (or --out FILE), prints it and the file's path. CPU is read from /proc (1/100 s ticks): 30,000
 * requests of 40 µs are 1.2 s, read to within 1 %.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchContext } from './harness/bench-context.js';
import { log } from './harness/log.js';
import { cpuSeconds, runLoadAsync, stop } from './harness/processes.js';
import { recordRun, revisionOf } from './harness/run-record.js';
import {
  authorPath,
  type Demo,
  getToken,
  seedDemo,
  startApi,
  type Target,
  targetFor,
  tokenForm,
} from './harness/targets.js';

const { values: args } = parseArgs({
  options: {
    checkouts: { type: 'string', default: '.' },
    scenario: { type: 'string', default: 'token' },
    db: { type: 'string', default: 'sqlite' },
    n: { type: 'string', default: '30000' },
    rounds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
    // `warn` serves without the access log; by default it is on, written to a file.
    'log-level': { type: 'string' },
    // Where the results go; by default a new file under bench/results/ named by date and revision.
    out: { type: 'string' },
  },
});
const checkouts = (args.checkouts ?? '.').split(',').map((dir) => resolve(dir));
const n = Number(args.n);
const rounds = Number(args.rounds);
const connections = Number(args.connections);
/** bench/load.ts of this checkout drives every server, so the load is the same for each. */
const loadRoot = process.cwd();

const settings = {
  logs: mkdtempSync(join(tmpdir(), 'rpa-compare-logs-')),
  postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
};
const children = new Set<ChildProcess>();

interface Served {
  readonly checkout: string;
  readonly revision: string;
  readonly target: Target;
  readonly child: ChildProcess;
  readonly job: Record<string, unknown>;
  readonly perRequest: number[];
  readonly perSecond: number[];
}

/** Person numbers of the warm-up's forget requests, far from the rounds'. */
const WARM_UP_PEOPLE = 1_000_000_000;

/** The scenario's load job against a served checkout (its privacy bodies numbered per run: runOf). */
async function jobFor(base: string, demo: Demo, token: string): Promise<Record<string, unknown>> {
  if (args.scenario === 'author')
    return {
      url: `${base}${await authorPath(base, demo, token)}`,
      headers: { authorization: `Bearer ${token}` },
    };
  if (args.scenario === 'privacy')
    return {
      url: `${base}/privacy/v1/forgetRequests?passkey=${demo.privacyPasskey}`,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      distinctBodies: {
        template: JSON.stringify({ authorId: 'person-@N@', clientNames: ['Acme-EN_GB', 'Acme-DE_DE'] }),
        placeholder: '@N@',
      },
    };
  if (args.scenario !== 'token') throw new Error(`unknown scenario ${args.scenario}`);
  return {
    url: `${base}/auth/v1/oauth2/token`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenForm(demo),
  };
}

/** The job for one run of `amount` requests; forget requests start at person `first`. */
function runOf(s: Served, amount: number, first: number): Record<string, unknown> {
  const bodies = s.job.distinctBodies as Record<string, unknown> | undefined;
  return { ...s.job, amount, ...(bodies ? { distinctBodies: { ...bodies, start: first } } : {}) };
}

/** Builds, seeds and serves one checkout; its job is the scenario's request against it. */
async function serve(checkout: string): Promise<Served> {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: checkout, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`build failed in ${checkout}`);
  const revision = revisionOf(checkout);
  const target = await targetFor(args.db ?? 'sqlite', settings);
  if (args.scenario === 'privacy') target.env.WORKER_ENABLED = 'false';
  const demo = seedDemo(checkout, target);
  const ctx = {
    settings: { root: checkout, logs: settings.logs },
    rows: [],
    children,
  } as unknown as BenchContext;
  const api = await startApi(ctx, target, args['log-level'] === 'warn' ? { logLevel: 'warn' } : {});
  const token = await getToken(api.base, demo);
  const job = await jobFor(api.base, demo, token);
  return {
    checkout,
    revision,
    target,
    child: api.child,
    job: { ...job, connections },
    perRequest: [],
    perSecond: [],
  };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

/** The checkouts' figures as a Markdown table, each median also against the first checkout's. */
function comparison(served: readonly Served[]): string {
  const table = (figures: (s: Served) => number[], best: (values: number[]) => number, digits: number) => {
    const first = median(figures(served[0] as Served));
    return served.map((s) => {
      const m = median(figures(s));
      const each = figures(s)
        .map((v) => v.toFixed(digits))
        .join(' ');
      return `| ${s.checkout} | ${s.revision} | ${m.toFixed(digits)} | ${best(figures(s)).toFixed(digits)} | ${each} | ${(m / first).toFixed(3)} |`;
    });
  };
  const head = [
    '| checkout | revision | median | best | each round | median of the first |',
    '|---|---|---:|---:|---|---:|',
  ];
  return [
    `Server CPU per request, µs: ${args.scenario} on ${args.db}, ${rounds} rounds of ${n} requests at ${connections} connections, the checkouts in turns.`,
    '',
    ...head,
    ...table(
      (s) => s.perRequest,
      (v) => Math.min(...v),
      1,
    ),
    '',
    'Requests answered per second, the same rounds:',
    '',
    ...head,
    ...table(
      (s) => s.perSecond,
      (v) => Math.max(...v),
      0,
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  const started = new Date();
  const served: Served[] = [];
  try {
    for (const checkout of checkouts) served.push(await serve(checkout));
    log(
      `${args.scenario} on ${args.db}: ${checkouts.length} checkouts, ${rounds} rounds of ${n} requests each`,
    );
    for (const s of served) await runLoadAsync(loadRoot, runOf(s, Math.min(n, 5000), WARM_UP_PEOPLE));
    for (let round = 0; round < rounds; round++) {
      for (const s of served) {
        const before = cpuSeconds(s.child);
        const result = await runLoadAsync(loadRoot, runOf(s, n, round * n));
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${s.checkout}: failed requests`);
        s.perRequest.push(((cpuSeconds(s.child) - before) * 1e6) / n);
        s.perSecond.push(result.requestsPerSecond);
      }
    }
    const run = {
      title: 'bench/compare-checkouts.ts',
      started,
      revision: revisionOf(loadRoot),
      options: args,
      body: comparison(served),
    };
    const { text, path } = recordRun(loadRoot, run, args.out);
    process.stdout.write(`${text}\n`);
    log(`results written to ${relative(process.cwd(), path)}`);
  } finally {
    for (const s of served) {
      await stop(s.child);
      await s.target.cleanup();
    }
    rmSync(settings.logs, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`compare failed: ${err instanceof Error ? err.message : String(err)}\n`);
  for (const c of children) c.kill('SIGKILL');
  process.exit(1);
});
